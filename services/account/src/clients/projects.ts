import { type Caller, createServiceClient } from "@crafter/kit";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";

/** What connecting needs of projects: the caller's role on a project. */
export interface ProjectRoles {
  /** "owner", "projectAdmin" or "manager"; null when the caller's token does not reach the project. */
  roleOn(caller: Caller, projectId: string): Promise<string | null>;
}

/** Projects' ListProjects with the caller's own (or delegated) access token. */
export function projectRoles(baseUrl: string, timeoutMs: number): ProjectRoles {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs });
  return {
    async roleOn(caller, projectId) {
      if (!caller.token) return null;
      const { projects } = await client.listProjects({}, { headers: { authorization: `Bearer ${caller.token}` } });
      return projects.find((project) => project.projectId === projectId)?.role ?? null;
    },
  };
}
