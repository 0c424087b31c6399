import type { Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type CraftView, craftView } from "../domain/view";
import { definitionOf, loadCraft } from "./common";

export async function getCraft(deps: WorkflowsDeps, caller: Caller, craftId: string): Promise<CraftView> {
  const craft = await loadCraft(deps, caller, craftId);
  return craftView(definitionOf(deps, craft), craft);
}
