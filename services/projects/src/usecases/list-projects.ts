import type { Project } from "../store/project.repository";
import type { ProjectsDeps } from "./deps";

/** The caller's projects, oldest first. */
export function listProjects(deps: Pick<ProjectsDeps, "projects">, userId: string): Promise<Project[]> {
  return deps.projects.listForUser(userId);
}
