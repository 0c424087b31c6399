import type { Caller } from "@crafter/kit";
import type { ProjectRole } from "@crafter/roles";
import type { ProjectsDeps } from "../deps";
import type { Project } from "../store/project.repository";

/**
 * The caller's projects, oldest first, then the projects they are a team member of (issue 14),
 * each with the caller's role on it.
 */
export async function listProjects(deps: ProjectsDeps, caller: Caller): Promise<(Project & { role: ProjectRole })[]> {
  const [owned, memberships] = await Promise.all([
    deps.stores.projects.listForUser(caller.userId),
    deps.stores.members.ofUser(caller.userId),
  ]);
  // One read by _id per membership (equality; FerretDB does not push `$in` down).
  const shared = await Promise.all(
    memberships.map(async (member) => {
      const project = await deps.stores.projects.anyById(member.projectId);
      return project ? { ...project, role: member.role } : null;
    }),
  );
  return [
    ...owned.map((project) => ({ ...project, role: "owner" as const })),
    ...shared.filter((project) => project !== null),
  ];
}
