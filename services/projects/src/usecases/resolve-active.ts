import type { ProjectsDeps } from "../deps";
import type { ActivePointer } from "../store/active-project.repository";
import type { Project } from "../store/project.repository";
import { projectAccess } from "./project-access";

/** The user's active project and the stored pointer it was resolved from. */
export interface ResolvedActive {
  /** The active project, or null when the user has no project. */
  project: Project | null;
  /** The stored pointer; null when none was ever stored. */
  pointer: ActivePointer | null;
}

/**
 * Resolves the user's active project: the stored pointer when it names one of their projects,
 * else (no pointer yet, e.g. after a half-finished creation) their most recent project. Read-only.
 */
export async function resolveActive(deps: ProjectsDeps, userId: string): Promise<ResolvedActive> {
  const pointer = await deps.stores.active.current(userId);
  if (pointer) {
    // One of theirs, or one they are a team member of (removed members fall back to their own).
    const access = await projectAccess(deps, userId, pointer.projectId);
    if (access) return { project: access.project, pointer };
  }
  return { project: await deps.stores.projects.latest(userId), pointer };
}
