import type { JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { appError, type Caller, createServiceClient, describeError, onBehalfOf } from "@crafter/kit";
import { type Profile, ProfileType, ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { ProfileSnapshot } from "../domain/types";

export interface ResolvedProfile {
  projectId: string;
  profile: ProfileSnapshot | null;
}

/** Where a new craft's project and profile come from. */
export interface ProfileSource {
  /**
   * The profile a craft prefills from: `profileId` when given, else the profile of `projectId`,
   * else the user's active project (none when the user has no project yet).
   */
  resolve(caller: Caller, request: { projectId: string; profileId: string }): Promise<ResolvedProfile>;
}

export function snapshotOf(profile: Profile): ProfileSnapshot {
  return {
    profileId: profile.profileId,
    name: profile.name,
    description: profile.description,
    audience: profile.audience,
    keywords: [...profile.keywords],
    websiteUrl: profile.websiteUrl,
    type: ProfileType[profile.type]?.replace("PROFILE_TYPE_", "") ?? "",
    fields: (profile.fields ?? {}) as Record<string, JsonValue>,
  };
}

/** Re-throws a projects failure in the spec's terms (e.g. NOT_FOUND), never as a raw upstream error. */
function upstream(error: unknown, notFound: string): never {
  const described = describeError(error);
  if (described.code === "NOT_FOUND" || ConnectError.from(error).code === Code.NotFound)
    throw appError("NOT_FOUND", notFound);
  if (described.code === "InternalServerError") throw appError("InternalServerError");
  throw appError(described.code, described.message, described.fields);
}

/** Asks the projects service, on behalf of the calling user (their token is forwarded). */
export function projectsProfileSource(baseUrl: string, timeoutMs: number): ProfileSource {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs });
  const getProfile = async (caller: Caller, profileId: string) => {
    const response = await client
      .getProfile({ profileId }, onBehalfOf(caller))
      .catch((error) => upstream(error, "Profile not found."));
    if (!response.profile) throw appError("NOT_FOUND", "Profile not found.");
    return response.profile;
  };

  return {
    async resolve(caller, { projectId, profileId }) {
      if (profileId) {
        const profile = await getProfile(caller, profileId);
        if (projectId && profile.projectId && profile.projectId !== projectId) {
          throw appError("CR_ERR_BAD_REQUEST", "The profile does not belong to this project.", {
            profileId: "The profile does not belong to this project.",
          });
        }
        return { projectId: projectId || profile.projectId, profile: snapshotOf(profile) };
      }
      if (projectId) {
        const { projects } = await client
          .listProjects({}, onBehalfOf(caller))
          .catch((error) => upstream(error, "Project not found."));
        const project = projects.find((candidate) => candidate.projectId === projectId);
        if (!project) throw appError("NOT_FOUND", "Project not found.");
        const profile = project.profileId ? await getProfile(caller, project.profileId) : undefined;
        return { projectId, profile: profile ? snapshotOf(profile) : null };
      }
      const active = await client
        .getActiveProject({}, onBehalfOf(caller))
        .catch((error) => upstream(error, "Project not found."));
      if (!active.projectId) return { projectId: "", profile: null };
      return { projectId: active.projectId, profile: active.profile ? snapshotOf(active.profile) : null };
    },
  };
}
