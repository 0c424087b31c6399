import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";
import { projectAccess } from "./project-access";
import { resolveActive } from "./resolve-active";

const CONFLICT_MESSAGE = "The active project was changed elsewhere. Reload and try again.";

/**
 * Switches the caller's active project from `currentActiveId` to `newActiveId` with a
 * compare-and-set, so of two tabs switching at once only one wins.
 * @throws AppError NOT_FOUND when newActiveId is not one of the caller's projects;
 *   CONFLICT when currentActiveId is not the active project (any more);
 *   CR_ERR_BAD_REQUEST when newActiveId is empty.
 */
export async function setActiveProject(
  deps: ProjectsDeps,
  caller: Caller,
  request: { currentActiveId: string; newActiveId: string },
): Promise<{ projectId: string; projectTitle: string; profile: Profile | null }> {
  const { userId } = caller;
  if (!request.newActiveId) throw badRequest({ newActiveId: "The new active project is required" });
  // One of the caller's projects or one they are a team member of.
  const next = (await projectAccess(deps, userId, request.newActiveId))?.project;
  if (!next) throw appError("NOT_FOUND", "Project not found");

  const { project: current, pointer } = await resolveActive(deps, userId);
  const currentId = current?.id ?? "";
  if (pointer === null) {
    // Nothing stored yet: the client may name the fallback project or none at all.
    const matches = request.currentActiveId === currentId || request.currentActiveId === "";
    if (!matches || !(await deps.stores.active.setIfNone(userId, next.id)))
      throw appError("CONFLICT", CONFLICT_MESSAGE);
  } else {
    if (request.currentActiveId !== currentId) throw appError("CONFLICT", CONFLICT_MESSAGE);
    if (!(await deps.stores.active.switch(userId, pointer.version, next.id)))
      throw appError("CONFLICT", CONFLICT_MESSAGE);
  }
  return {
    projectId: next.id,
    projectTitle: next.title,
    profile: await deps.stores.profiles.findById(next.userId, next.profileId),
  };
}
