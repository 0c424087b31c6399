import { createServiceClient, type ServiceCredentials } from "@crafter/kit";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { PublicBrandPort } from "../deps";
import type { SenderProjectsPort } from "../usecases/sender";

/**
 * The projects service's ListProjects with the caller's token: a project they own, or the one a
 * member's delegated token was issued for.
 */
export function projectsOfCaller(baseUrl: string, timeoutMs: number): SenderProjectsPort {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs });
  return {
    async project(caller, projectId) {
      if (!caller.token) return null;
      const { projects } = await client.listProjects({}, { headers: { authorization: `Bearer ${caller.token}` } });
      const project = projects.find((p) => p.projectId === projectId);
      return project ? { title: project.projectTitle } : null;
    },
  };
}

/** Projects' GetPublicBrand with the notifications service's token naming the user. */
export function projectsBrands(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): PublicBrandPort {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async brandOf(userId, projectId) {
      const { name, logoUrl } = await client.getPublicBrand({ userId, projectId });
      return { name, logoUrl };
    },
  };
}
