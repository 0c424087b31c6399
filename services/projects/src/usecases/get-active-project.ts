import type { Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import type { CheckListItem } from "../domain/check-list";
import type { Profile } from "../store/profile.repository";
import { checkListOf } from "./get-check-list";
import { resolveActive } from "./resolve-active";

/** The active project as the dashboard shows it; projectId is null when the user has no project. */
export interface ActiveProjectView {
  projectId: string | null;
  projectTitle: string;
  profile: Profile | null;
  checkList: CheckListItem[];
  /** The caller's role on it (owner, or a team member's); "" without a project. */
  role: string;
}

/**
 * The caller's active project with its PROJECT profile and check-list. A team member's delegated
 * token (`delegated`, its `pid` and role) is always in its one project, whatever the
 * owner's own active project is, so a service resolving "the active project" for it stays there.
 */
export async function getActiveProject(
  deps: ProjectsDeps,
  caller: Caller,
  delegated?: { projectId: string; role: string },
): Promise<ActiveProjectView> {
  const { userId } = caller;
  const project = delegated
    ? await deps.stores.projects.anyById(delegated.projectId).then((p) => (p?.userId === userId ? p : null))
    : (await resolveActive(deps, userId)).project;
  if (!project) return { projectId: null, projectTitle: "", profile: null, checkList: [], role: "" };
  // The project's owner holds its profile (the caller may be a team member).
  const profile = await deps.stores.profiles.findById(project.userId, project.profileId);
  return {
    projectId: project.id,
    projectTitle: project.title,
    profile,
    checkList: await checkListOf(deps, project, profile),
    role: delegated
      ? delegated.role
      : project.userId === userId
        ? "owner"
        : ((await deps.stores.members.membership(project.id, userId))?.role ?? ""),
  };
}
