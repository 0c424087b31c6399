import type { JsonObject } from "@bufbuild/protobuf";
import type { Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { displayName } from "../domain/craft-index";
import { resultsView } from "../domain/view";
import { definitionOf, loadCraft } from "./common";

/** Every result of a craft, step by step. */
export async function getResults(
  deps: WorkflowsDeps,
  caller: Caller,
  craftId: string,
): Promise<{ craftId: string; craftName: string; results: JsonObject[] }> {
  const craft = await loadCraft(deps, caller, craftId);
  return { craftId: craft.id, craftName: displayName(craft), results: resultsView(definitionOf(deps, craft), craft) };
}
