import type { Caller } from "@crafter/kit";
import type { ProjectRole } from "@crafter/roles";
import type { ProjectsDeps } from "../deps";
import type { Project } from "../store/project.repository";

/**
 * The caller's projects, oldest first, then the projects they are a team member of,
 * each with the caller's role on it.
 */
export async function listProjects(deps: ProjectsDeps, caller: Caller): Promise<(Project & { role: ProjectRole })[]> {
  const [owned, memberships] = await Promise.all([
    deps.stores.projects.listForUser(caller.userId),
    deps.stores.members.ofUser(caller.userId),
  ]);
  const projects = await deps.stores.projects.anyByIds(memberships.map((member) => member.projectId));
  const shared = memberships.flatMap((member, i) => {
    const project = projects[i];
    return project ? [{ ...project, role: member.role }] : [];
  });
  return [...owned.map((project) => ({ ...project, role: "owner" as const })), ...shared];
}
