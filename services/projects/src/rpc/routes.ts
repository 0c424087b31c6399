import type { ConnectRouter } from "@connectrpc/connect";
import { badRequest, type Caller, callerOf, requireUser } from "@crafter/kit";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { ProjectsDeps } from "../deps";
import { getBrandVoice, getPublicBrand, updateBrandVoice } from "../usecases/brand-voice";
import { createProfile } from "../usecases/create-profile";
import { createProject } from "../usecases/create-project";
import { deleteProfile } from "../usecases/delete-profile";
import { deleteProject } from "../usecases/delete-project";
import { getActiveProject } from "../usecases/get-active-project";
import { getCheckList } from "../usecases/get-check-list";
import { getProfile } from "../usecases/get-profile";
import {
  chooseGoogleLocation,
  getGoogleBusiness,
  listGoogleLocations,
  previewGoogleListing,
  syncGoogleReviews,
} from "../usecases/google-business";
import { listProfileCrafts } from "../usecases/list-profile-crafts";
import { listProfiles } from "../usecases/list-profiles";
import { listProjects } from "../usecases/list-projects";
import { actingIn, actingOnProfile } from "../usecases/project-access";
import { renameProject } from "../usecases/rename-project";
import { createReview, deleteReview, importReviews, listReviews, replyToReview } from "../usecases/reviews";
import { setActiveProject } from "../usecases/set-active-project";
import { updateProfile } from "../usecases/update-profile";
import {
  checkListMessage,
  googleBusinessMessage,
  profileMessage,
  profileTypeName,
  projectMessage,
  reviewMessage,
  timestamp,
} from "./mappers";
import { ownCaller } from "./members.routes";

/**
 * crafter.projects.v1.ProjectsService: every call is scoped to the caller of the access token; on a
 * project they are a team member of, `actingIn`/`actingOnProfile` check their role
 * (@crafter/roles PROJECT_PERMISSIONS) and run the use case in the owner's data of that project.
 */
export function routes(deps: ProjectsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(ProjectsService, {
      async createProject(req, ctx) {
        const { project, profile } = await createProject(deps, callerOf(ctx), req);
        return { project: projectMessage(project), profile: profileMessage(profile) };
      },
      async listProjects(_req, ctx) {
        // A delegated token sees its one project, never the owner's others.
        const pid = requireUser(ctx).delegatedProjectId;
        const listed = await listProjects(deps, callerOf(ctx));
        return {
          projects: listed
            .filter((project) => !pid || project.id === pid)
            .map(({ role, ...project }) => projectMessage(project, role)),
        };
      },
      async getActiveProject(_req, ctx) {
        const claims = requireUser(ctx);
        const delegated = claims.delegatedProjectId
          ? { projectId: claims.delegatedProjectId, role: claims.role }
          : undefined;
        const active = await getActiveProject(deps, callerOf(ctx), delegated);
        return {
          projectId: active.projectId ?? undefined,
          projectTitle: active.projectTitle,
          profile: active.profile ? profileMessage(active.profile) : undefined,
          checkList: checkListMessage(active.checkList),
          role: active.role,
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
        return {
          items: checkListMessage(
            await getCheckList(deps, await actingIn(deps, callerOf(ctx), req.projectId, "project.read"), req.projectId),
          ),
        };
      },
      async getProfile(req, ctx) {
        return {
          profile: profileMessage(
            await getProfile(
              deps,
              await actingOnProfile(deps, callerOf(ctx), req.profileId, "project.read"),
              req.profileId,
            ),
          ),
        };
      },
      async renameProject(req, ctx) {
        return {
          project: projectMessage(
            await renameProject(deps, await actingIn(deps, callerOf(ctx), req.projectId, "project.settings"), req),
          ),
        };
      },
      async deleteProject(req, ctx) {
        return deleteProject(deps, ownCaller(ctx), req);
      },
      async listProfiles(req, ctx) {
        const caller = await actingIn(deps, actingFor(callerOf(ctx), req.userId), req.projectId, "project.read");
        const profiles = await listProfiles(deps, caller, {
          projectId: req.projectId,
          type: profileTypeName(req.type),
        });
        return { profiles: profiles.map(profileMessage) };
      },
      async createProfile(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.write");
        const profile = await createProfile(deps, caller, {
          projectId: req.projectId,
          type: profileTypeName(req.type),
          values: req.values ?? {},
        });
        return { profile: profileMessage(profile) };
      },
      async updateProfile(req, ctx) {
        const caller = await actingOnProfile(deps, callerOf(ctx), req.profileId, "project.write");
        const profile = await updateProfile(deps, caller, {
          profileId: req.profileId,
          values: req.values ?? {},
          sections: req.sections ?? {},
        });
        return { profile: profileMessage(profile) };
      },
      async deleteProfile(req, ctx) {
        await deleteProfile(deps, await actingOnProfile(deps, callerOf(ctx), req.profileId, "project.write"), req);
        return {};
      },
      async listProfileCrafts(req, ctx) {
        const crafts = await listProfileCrafts(
          deps,
          await actingOnProfile(deps, callerOf(ctx), req.profileId, "project.read"),
          req,
        );
        return { crafts: crafts.map((craft) => ({ ...craft, createdAt: timestamp(craft.createdAt) })) };
      },
      async listReviews(req, ctx) {
        const page = await listReviews(deps, await actingIn(deps, callerOf(ctx), req.projectId, "project.read"), req);
        return {
          reviews: page.items.map(reviewMessage),
          total: page.total,
          page: page.page,
          totalPages: page.totalPages,
        };
      },
      async createReview(req, ctx) {
        return {
          review: reviewMessage(
            await createReview(deps, await actingIn(deps, callerOf(ctx), req.projectId, "project.write"), req),
          ),
        };
      },
      async importReviews(req, ctx) {
        return importReviews(deps, await actingIn(deps, callerOf(ctx), req.projectId, "project.write"), req);
      },
      async replyToReview(req, ctx) {
        return { review: reviewMessage(await replyToReview(deps, callerOf(ctx), req)) };
      },
      async deleteReview(req, ctx) {
        await deleteReview(deps, callerOf(ctx), req);
        return {};
      },
      async getGoogleBusiness(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.read");
        return { googleBusiness: googleBusinessMessage(await getGoogleBusiness(deps, caller, req)) };
      },
      async listGoogleLocations(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.read");
        return { locations: await listGoogleLocations(deps, caller, req) };
      },
      async chooseGoogleLocation(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.settings");
        const outcome = await chooseGoogleLocation(deps, caller, req);
        return {
          googleBusiness: googleBusinessMessage({ connection: "connected", location: outcome.location }),
          created: outcome.created,
          updated: outcome.updated,
        };
      },
      async syncGoogleReviews(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.write");
        const outcome = await syncGoogleReviews(deps, caller, req);
        return {
          googleBusiness: googleBusinessMessage({ connection: "connected", location: outcome.location }),
          created: outcome.created,
          updated: outcome.updated,
        };
      },
      async previewGoogleListing(req, ctx) {
        const caller = await actingIn(deps, callerOf(ctx), req.projectId, "project.read");
        const preview = await previewGoogleListing(deps, caller, req);
        return { changes: preview.changes, values: preview.values };
      },
      async getBrandVoice(req, ctx) {
        return {
          brandVoice: await getBrandVoice(
            deps,
            await actingIn(deps, callerOf(ctx), req.projectId, "project.read"),
            req,
          ),
        };
      },
      async updateBrandVoice(req, ctx) {
        return {
          brandVoice: await updateBrandVoice(
            deps,
            await actingIn(deps, callerOf(ctx), req.projectId, "project.settings"),
            req,
          ),
        };
      },
      async getPublicBrand(req, ctx) {
        const caller = actingFor(callerOf(ctx), req.userId);
        return getPublicBrand(deps, { userId: caller.userId, projectId: req.projectId });
      },
    });
}

/**
 * A service caller acting for the user it names (the access table decides which services may); a
 * user acts for themselves. @throws CR_ERR_BAD_REQUEST when a service names no user.
 */
function actingFor(caller: Caller, userId: string): Caller {
  if (!caller.service) return caller;
  if (!userId || userId.length > 64) throw badRequest({ userId: "Name the user" });
  return { ...caller, userId };
}
