import { appError } from "@crafter/kit";
import { type CraftSummaryView, summaryView } from "../domain/view";
import { requireField } from "./common";
import type { WorkflowsDeps } from "./deps";

/** Stars or unstars a craft. @throws NOT_FOUND */
export async function setFavorite(
  deps: WorkflowsDeps,
  userId: string,
  input: { craftId: string; favorite: boolean },
): Promise<CraftSummaryView> {
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  const craft = await deps.crafts.setFavorite(userId, craftId, input.favorite);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  return summaryView(craft);
}
