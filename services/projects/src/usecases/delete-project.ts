import { appError, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { ownedProject } from "./owned";
import { resolveActive } from "./resolve-active";

/**
 * Deletes one of the caller's projects with its profiles, reviews, team (members and open invites) and custom domain, and announces it with
 * ProjectDeleted: a tombstone carrying the event is written first (the commit point; a retried
 * delete writes no second one), then the data goes, so the event is never lost. When it was the
 * active project, the user's most recent remaining project becomes active (resolveActive falls back to it).
 * @returns the active project id afterwards.
 * @throws AppError NOT_FOUND (not the caller's), CR_ERR_BAD_REQUEST when it is their only project.
 */
export async function deleteProject(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<{ activeProjectId: string }> {
  const { userId } = caller;
  const project = await ownedProject(deps, userId, input.projectId);
  if ((await deps.stores.projects.count(userId)) <= 1) {
    throw appError("CR_ERR_BAD_REQUEST", "You need at least one project. Create another one first.", {
      projectId: "You need at least one project. Create another one first.",
    });
  }
  await deps.stores.deletions.tombstone(project, deps.now(), deps.events.deleted(project));
  deps.kick();
  // The project goes next: once it is gone nothing lists it, and leftovers below are unreachable.
  await deps.stores.projects.remove(userId, project.id);
  await Promise.all([
    deps.stores.profiles.removeForProject(userId, project.id),
    deps.stores.reviews.removeForProject(userId, project.id),
    deps.stores.googleLocations.remove(project.id),
    // Its team ends with it: members no longer list it, its invite links answer INVITE_INVALID.
    deps.stores.members.endProject(project.id, userId, deps.now()),
    // Its custom domain stops serving and is free for another project.
    deps.stores.customDomains.remove(project.id),
  ]);
  const { project: active } = await resolveActive(deps, userId);
  return { activeProjectId: active?.id ?? "" };
}
