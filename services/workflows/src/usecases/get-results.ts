import type { JsonObject } from "@bufbuild/protobuf";
import { resultsView } from "../domain/view";
import { definitionOf, loadCraft } from "./common";
import type { WorkflowsDeps } from "./deps";

/** Every result of a craft, step by step. */
export async function getResults(
  deps: WorkflowsDeps,
  userId: string,
  craftId: string,
): Promise<{ craftId: string; craftName: string; results: JsonObject[] }> {
  const craft = await loadCraft(deps, userId, craftId);
  return { craftId: craft.id, craftName: craft.craftName, results: resultsView(definitionOf(deps, craft), craft) };
}
