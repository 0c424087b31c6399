import { z } from "zod";
import { toActiveProjectInfo, toCheckList, toProfile, toProject } from "../domain/mappers";
import { defineRoute, type RouteDef } from "../http/registry";
import {
  activeProjectInfoSchema,
  checkListSchema,
  id,
  profileSchema,
  projectSchema,
  requiredText,
  timeZoneName,
  websiteAddress,
} from "../http/schemas";
import { recentCrafts } from "./account.routes";
import type { RouteDeps } from "./deps";

const projectBody = z.object({
  // The projects service's limits (PROJECT_LIMITS), on the text as sent.
  name: requiredText("Name is required", 120, "Name must be at most 120 characters", "Business name is required"),
  description: requiredText("Description is required", 5000, "Description must be at most 5000 characters"),
  audience: z
    .string({ error: "audience must be text" })
    .max(1000, "Audience must be at most 1000 characters")
    .optional(),
  keywords: z
    .array(z.string({ error: "Each keyword must be text" }).max(60, "Each keyword must be at most 60 characters"), {
      error: "keywords must be a list",
    })
    .max(20, "At most 20 keywords")
    .optional(),
  websiteUrl: websiteAddress.optional(),
  timeZone: timeZoneName("Time zone must be an IANA time zone, such as Europe/London").optional(),
});

/** /api/projects (spec section 7). */
export function projectsRoutes({ clients, delegations, acting }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/projects",
      tag: "projects",
      summary: "The user's projects",
      auth: "session",
      response: z.object({ projects: z.array(projectSchema.nullable()) }),
      handler: async ({ as }) => ({ projects: (await clients.projects.listProjects({}, as)).projects.map(toProject) }),
    }),
    defineRoute({
      method: "post",
      path: "/api/projects/createProject",
      tag: "projects",
      summary: "Create a project and its profile; the first becomes active",
      auth: "session",
      body: projectBody,
      response: z.object({ project: projectSchema.nullable(), profile: profileSchema.nullable() }),
      status: 201,
      idempotent: true,
      errors: ["InvalidUrl", "CONFLICT"],
      handler: async ({ body, as }) => {
        const created = await clients.projects.createProject(
          {
            name: body.name,
            description: body.description,
            audience: body.audience ?? "",
            keywords: body.keywords ?? [],
            websiteUrl: body.websiteUrl ?? "",
            timeZone: body.timeZone ?? "",
          },
          as,
        );
        return { project: toProject(created.project), profile: toProfile(created.profile) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/projects/active-project",
      tag: "projects",
      summary: "The active project",
      auth: "session",
      response: activeProjectInfoSchema,
      handler: async ({ req, as }) => {
        const active = await clients.projects.getActiveProject({}, as);
        return toActiveProjectInfo(active, await recentCrafts(clients, acting, req, active, as));
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/projects/active-project",
      tag: "projects",
      summary: "Switch the active project",
      auth: "session",
      body: z.object({
        currentActiveId: z.string({ error: "currentActiveId is required" }).max(64, "currentActiveId is too long"),
        newActiveId: id("newActiveId"),
      }),
      response: z.object({ projectId: z.string(), projectTitle: z.string(), profile: profileSchema.nullable() }),
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as }) => {
        const active = await clients.projects.setActiveProject(body, as);
        return { projectId: active.projectId, projectTitle: active.projectTitle, profile: toProfile(active.profile) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/projects/{id}",
      tag: "projects",
      summary: "Rename a project (its business profile takes the same name)",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: z.object({
        projectTitle: z.string({ error: "projectTitle is required" }).max(500, "projectTitle is too long"),
      }),
      response: projectSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as }) =>
        toProject(
          (await clients.projects.renameProject({ projectId: params.id, title: body.projectTitle }, as)).project,
        )!,
    }),
    defineRoute({
      method: "delete",
      path: "/api/projects/{id}",
      tag: "projects",
      summary: "Delete a project with its profiles and reviews (not the only one)",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: z.object({ deleted: z.literal(true), activeProjectId: z.string() }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        const outcome = await clients.projects.deleteProject({ projectId: params.id }, as);
        delegations.drop(params.id);
        return { deleted: true as const, activeProjectId: outcome.activeProjectId };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/projects/check-list/{id}",
      tag: "projects",
      summary: "A project's onboarding check list",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: z.object({ checkList: checkListSchema }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => ({
        checkList: toCheckList((await clients.projects.getCheckList({ projectId: params.id }, as)).items),
      }),
    }),
  ];
}
