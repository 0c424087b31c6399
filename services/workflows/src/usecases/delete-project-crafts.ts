import type { WorkflowsDeps } from "../deps";

/**
 * Deletes the crafts of a deleted project (ProjectDeleted of the projects service): their published
 * pages are taken down, then the crafts leave every list and read, as `deleteCraft` does one by
 * one (marked, not removed, so events in their outboxes are still relayed). Pages go first, so a
 * crash between the two is finished by the redelivery. Idempotent: a redelivered event finds no
 * craft of the project left and changes nothing.
 * @returns how many crafts were deleted.
 */
export async function deleteProjectCrafts(
  deps: Pick<WorkflowsDeps, "stores" | "logger" | "now">,
  event: { userId: string; projectId: string },
): Promise<number> {
  if (!event.userId || !event.projectId) return 0;
  const ids = await deps.stores.crafts.idsOfProject(event.userId, event.projectId);
  if (ids.length === 0) return 0;
  for (const id of ids) await deps.stores.pages.removeForCraft(event.userId, id);
  const deleted = await deps.stores.crafts.softDeleteProject(event.userId, event.projectId, deps.now());
  deps.logger.info({ projectId: event.projectId, crafts: deleted }, "crafts of a deleted project deleted");
  return deleted;
}
