import type { ProjectsDeps } from "../deps";

/**
 * Counts a newly created craft in its project (and its profile's crafts section) from CraftCreated, once per craft id. A craft
 * without a project, or naming a project that is not its user's, is logged and not counted.
 */
export async function countCraft(
  deps: ProjectsDeps,
  event: { userId: string; craftId: string; projectId: string; workflowName: string; profileId?: string },
): Promise<void> {
  if (!event.projectId || !event.userId || !event.craftId) {
    deps.logger.debug({ craftId: event.craftId }, "craft without project not counted");
    return;
  }
  if (!(await deps.stores.projects.get(event.userId, event.projectId))) {
    deps.logger.warn({ craftId: event.craftId, projectId: event.projectId }, "craft of an unknown project not counted");
    return;
  }
  const counted = await deps.stores.crafts.record(event);
  if (!counted) deps.logger.debug({ craftId: event.craftId }, "craft already counted");
}
