import { appError, type Caller } from "@crafter/kit";
import { canOnProject, type ProjectPermission, type ProjectRole } from "@crafter/roles";
import type { ProjectsDeps } from "../deps";
import type { Project } from "../store/project.repository";

/** A project and the caller's role on it. */
export interface ProjectAccess {
  project: Project;
  role: ProjectRole;
}

/**
 * The one place that decides who may act on a project (team members included): its owner, or a
 * user with a grant in `project_members` (`_id = projectId:userId`, one read). A removed member's
 * grant is gone, so they lose access on their next call.
 * @returns null when there is no such project or the user is neither its owner nor a member.
 */
export async function projectAccess(
  deps: ProjectsDeps,
  userId: string,
  projectId: string,
): Promise<ProjectAccess | null> {
  if (!userId || !projectId) return null;
  const project = await deps.stores.projects.anyById(projectId);
  if (!project) return null;
  if (project.userId === userId) return { project, role: "owner" };
  const member = await deps.stores.members.membership(projectId, userId);
  return member ? { project, role: member.role } : null;
}

/**
 * The caller a project-scoped use case runs as. The project's data lives under its owner (the
 * stores' tenant), so a team member whose role allows `permission` (@crafter/roles
 * PROJECT_PERMISSIONS) acts as the owner within this one project; the use case still scopes every
 * read and write to `projectId`. The owner, and anyone without access, act as themselves (the use
 * case then answers NOT_FOUND for a project that is not theirs, as before).
 * @throws AppError FORBIDDEN when a member's role does not allow `permission`.
 */
export async function actingIn(
  deps: ProjectsDeps,
  caller: Caller,
  projectId: string,
  permission: ProjectPermission,
): Promise<Caller> {
  const access = await projectAccess(deps, caller.userId, projectId);
  if (!access || access.role === "owner") return caller;
  if (!canOnProject(access.role, permission))
    throw appError("FORBIDDEN", "Your role on this project does not allow this.");
  return { ...caller, userId: access.project.userId };
}

/** `actingIn` for a use case that names a profile: the profile's project decides. */
export async function actingOnProfile(
  deps: ProjectsDeps,
  caller: Caller,
  profileId: string,
  permission: ProjectPermission,
): Promise<Caller> {
  if (!profileId) return caller;
  return actingIn(deps, caller, await deps.stores.profiles.projectIdOf(profileId), permission);
}
