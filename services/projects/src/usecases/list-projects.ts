import type { Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import type { Project } from "../store/project.repository";

/** The caller's projects, oldest first. */
export function listProjects(deps: ProjectsDeps, caller: Caller): Promise<Project[]> {
  return deps.stores.projects.listForUser(caller.userId);
}
