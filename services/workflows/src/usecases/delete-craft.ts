import { appError } from "@crafter/kit";
import { requireField, withActionLock } from "./common";
import type { WorkflowsDeps } from "./deps";

/**
 * Deletes a craft: it leaves every list and read (NOT_FOUND after). It is marked, not removed,
 * so events already in its outbox are still relayed. Waits for no running action: one that is
 * running makes this fail with TooManyRunningActions.
 * @throws NOT_FOUND, TooManyRunningActions
 */
export async function deleteCraft(deps: WorkflowsDeps, userId: string, craftId: string): Promise<{ craftId: string }> {
  const id = requireField(craftId, "craftId", "Craft id");
  return withActionLock(deps, id, async () => {
    if (!(await deps.crafts.softDelete(userId, id, deps.now()))) throw appError("NOT_FOUND", "Craft not found.");
    deps.logger.info({ craftId: id }, "craft deleted");
    return { craftId: id };
  });
}
