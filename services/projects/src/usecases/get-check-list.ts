import { appError, badRequest } from "@crafter/kit";
import { type CheckListItem, computeCheckList } from "../domain/check-list";
import type { Profile } from "../store/profile.repository";
import type { Project } from "../store/project.repository";
import type { ProjectsDeps } from "./deps";

/** The check-list of a project, from its PROJECT profile (null when missing) and its crafts count. */
export async function checkListOf(
  deps: Pick<ProjectsDeps, "crafts">,
  project: Project,
  profile: Profile | null,
): Promise<CheckListItem[]> {
  return computeCheckList({
    description: profile?.description ?? "",
    audience: profile?.audience ?? "",
    keywords: profile?.keywords ?? [],
    websiteUrl: profile?.websiteUrl ?? "",
    craftsCount: await deps.crafts.countFor(project.userId, project.id),
  });
}

/**
 * The check-list of one of the caller's projects.
 * @throws ConnectError NOT_FOUND when the project is not the caller's; CR_ERR_BAD_REQUEST without an id.
 */
export async function getCheckList(
  deps: Pick<ProjectsDeps, "projects" | "profiles" | "crafts">,
  userId: string,
  projectId: string,
): Promise<CheckListItem[]> {
  if (!projectId) throw badRequest({ projectId: "Project id is required" });
  const project = await deps.projects.get(userId, projectId);
  if (!project) throw appError("NOT_FOUND", "Project not found");
  return checkListOf(deps, project, await deps.profiles.findById(userId, project.profileId));
}
