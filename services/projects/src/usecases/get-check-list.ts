import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { type CheckListItem, computeCheckList } from "../domain/check-list";
import type { Profile } from "../store/profile.repository";
import type { Project } from "../store/project.repository";

/** The check-list of a project, from its PROJECT profile (null when missing) and its crafts count. */
export async function checkListOf(
  deps: ProjectsDeps,
  project: Project,
  profile: Profile | null,
): Promise<CheckListItem[]> {
  return computeCheckList({
    description: profile?.description ?? "",
    audience: profile?.audience ?? "",
    keywords: profile?.keywords ?? [],
    websiteUrl: profile?.websiteUrl ?? "",
    craftsCount: await deps.stores.crafts.countFor(project.userId, project.id),
  });
}

/**
 * The check-list of one of the caller's projects.
 * @throws AppError NOT_FOUND when the project is not the caller's; CR_ERR_BAD_REQUEST without an id.
 */
export async function getCheckList(deps: ProjectsDeps, caller: Caller, projectId: string): Promise<CheckListItem[]> {
  const { userId } = caller;
  if (!projectId) throw badRequest({ projectId: "Project id is required" });
  const project = await deps.stores.projects.get(userId, projectId);
  if (!project) throw appError("NOT_FOUND", "Project not found");
  return checkListOf(deps, project, await deps.stores.profiles.findById(userId, project.profileId));
}
