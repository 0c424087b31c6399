import { appError, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { loadCraft, requireField, withActionLock } from "./common";

/**
 * Deletes a craft: it leaves every list and read (NOT_FOUND after). It is marked, not removed,
 * so events already in its outbox are still relayed. Waits for no running action: one that is
 * running makes this fail with TooManyRunningActions. Its published page is taken down.
 * @throws NOT_FOUND, TooManyRunningActions
 */
export async function deleteCraft(deps: WorkflowsDeps, caller: Caller, craftId: string): Promise<{ craftId: string }> {
  const { userId } = caller;
  const id = requireField(craftId, "craftId", "Craft id");
  return withActionLock(deps, id, async () => {
    if (caller.delegatedProjectId !== undefined) await loadCraft(deps, caller, id);
    if (!(await deps.stores.crafts.softDelete(userId, id, deps.now()))) throw appError("NOT_FOUND", "Craft not found.");
    // A deleted craft's published page goes with it (its address is free again).
    await deps.stores.pages.removeForCraft(userId, id);
    deps.logger.info({ craftId: id }, "craft deleted");
    return { craftId: id };
  });
}
