import { appError, badRequest } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";
import type { Project } from "../store/project.repository";

/**
 * One of the user's projects.
 * @throws AppError CR_ERR_BAD_REQUEST without an id, NOT_FOUND when it is not theirs.
 */
export async function ownedProject(deps: ProjectsDeps, userId: string, projectId: string): Promise<Project> {
  if (!projectId) throw badRequest({ projectId: "Project id is required" });
  const project = await deps.stores.projects.get(userId, projectId);
  if (!project) throw appError("NOT_FOUND", "Project not found");
  return project;
}

/**
 * One of the user's profiles.
 * @throws AppError CR_ERR_BAD_REQUEST without an id, NOT_FOUND when it is not theirs.
 */
export async function ownedProfile(deps: ProjectsDeps, userId: string, profileId: string): Promise<Profile> {
  if (!profileId) throw badRequest({ profileId: "Profile id is required" });
  const profile = await deps.stores.profiles.findById(userId, profileId);
  if (!profile) throw appError("NOT_FOUND", "Profile not found");
  return profile;
}
