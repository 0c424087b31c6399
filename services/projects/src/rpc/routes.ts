import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { ProjectsDeps } from "../deps";
import { createProject } from "../usecases/create-project";
import { getActiveProject } from "../usecases/get-active-project";
import { getCheckList } from "../usecases/get-check-list";
import { getProfile } from "../usecases/get-profile";
import { listProjects } from "../usecases/list-projects";
import { setActiveProject } from "../usecases/set-active-project";
import { checkListMessage, profileMessage, projectMessage } from "./mappers";

/** crafter.projects.v1.ProjectsService: every call is scoped to the caller of the access token. */
export function routes(deps: ProjectsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(ProjectsService, {
      async createProject(req, ctx) {
        const { project, profile } = await createProject(deps, callerOf(ctx), req);
        return { project: projectMessage(project), profile: profileMessage(profile) };
      },
      async listProjects(_req, ctx) {
        return { projects: (await listProjects(deps, callerOf(ctx))).map(projectMessage) };
      },
      async getActiveProject(_req, ctx) {
        const active = await getActiveProject(deps, callerOf(ctx));
        return {
          projectId: active.projectId ?? undefined,
          projectTitle: active.projectTitle,
          profile: active.profile ? profileMessage(active.profile) : undefined,
          checkList: checkListMessage(active.checkList),
        };
      },
      async setActiveProject(req, ctx) {
        const active = await setActiveProject(deps, callerOf(ctx), req);
        return {
          projectId: active.projectId,
          projectTitle: active.projectTitle,
          profile: active.profile ? profileMessage(active.profile) : undefined,
        };
      },
      async getCheckList(req, ctx) {
        return { items: checkListMessage(await getCheckList(deps, callerOf(ctx), req.projectId)) };
      },
      async getProfile(req, ctx) {
        return { profile: profileMessage(await getProfile(deps, callerOf(ctx), req.profileId)) };
      },
    });
}
