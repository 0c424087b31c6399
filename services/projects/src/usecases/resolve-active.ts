import type { ActivePointer } from "../store/active-project.repository";
import type { Project } from "../store/project.repository";
import type { ProjectsDeps } from "./deps";

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
export async function resolveActive(
  deps: Pick<ProjectsDeps, "active" | "projects">,
  userId: string,
): Promise<ResolvedActive> {
  const pointer = await deps.active.current(userId);
  if (pointer) {
    const project = await deps.projects.get(userId, pointer.projectId);
    if (project) return { project, pointer };
  }
  return { project: await deps.projects.latest(userId), pointer };
}
