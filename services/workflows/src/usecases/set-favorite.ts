import { appError, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type CraftSummaryView, summaryView } from "../domain/view";
import { loadCraft, requireField } from "./common";

/** Stars or unstars a craft. @throws NOT_FOUND */
export async function setFavorite(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; favorite: boolean },
): Promise<CraftSummaryView> {
  const { userId } = caller;
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  if (caller.delegatedProjectId !== undefined) await loadCraft(deps, caller, craftId);
  const craft = await deps.stores.crafts.setFavorite(userId, craftId, input.favorite);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  return summaryView(craft);
}
