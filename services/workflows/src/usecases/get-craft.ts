import { type CraftView, craftView } from "../domain/view";
import { definitionOf, loadCraft } from "./common";
import type { WorkflowsDeps } from "./deps";

export async function getCraft(deps: WorkflowsDeps, userId: string, craftId: string): Promise<CraftView> {
  const craft = await loadCraft(deps, userId, craftId);
  return craftView(definitionOf(deps, craft), craft);
}
