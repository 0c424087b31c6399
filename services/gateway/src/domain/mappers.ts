import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type { UserInfo } from "@crafter/proto/crafter/account/v1/account_pb";
import type { GetCreditsResponse } from "@crafter/proto/crafter/billing/v1/billing_pb";
import {
  type CheckListItem,
  type GetActiveProjectResponse,
  type Profile,
  ProfileType,
  type Project,
  type Review,
} from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { Craft, CraftSummary, GetHeadersResponse } from "@crafter/proto/crafter/workflows/v1/workflows_pb";

// Pure mappings from service messages to the JSON shapes of spec section 7 (docs/api.md).

const iso = (timestamp?: Timestamp) => (timestamp ? timestampDate(timestamp).toISOString() : null);

/**
 * userInfo of spec section 3: the account's user info with billing's credits, their earliest
 * expiry (ISO 8601, null when none expires) and subscription.
 */
export function toUserInfo(info: UserInfo | undefined, credits: GetCreditsResponse | undefined) {
  return {
    credits: credits?.credits ?? 0,
    credits_expire_at: iso(credits?.expiresAt),
    display_name: info?.displayName || "Crafter",
    email: info?.email ?? "",
    image: info?.image ?? "",
    isSubscribed: credits?.isSubscribed ?? false,
    access: info?.access ?? [],
    role: info?.role || "owner",
  };
}

export function toProfile(profile: Profile | undefined) {
  if (!profile) return null;
  return {
    profileId: profile.profileId,
    projectId: profile.projectId,
    profileType: ProfileType[profile.type]?.replace("PROFILE_TYPE_", "") ?? "PROJECT",
    name: profile.name,
    description: profile.description,
    audience: profile.audience,
    keywords: profile.keywords,
    websiteUrl: profile.websiteUrl,
    fields: profile.fields ?? {},
    sections: profile.sections ?? {},
    updatedAt: iso(profile.updatedAt),
    source: profile.source,
    mediaAssetIds: profile.mediaAssetIds,
  };
}

export function toReview(review: Review | undefined) {
  return {
    reviewId: review?.reviewId ?? "",
    projectId: review?.projectId ?? "",
    author: review?.author ?? "",
    rating: review?.rating ?? 0,
    text: review?.text ?? "",
    source: review?.source ?? "",
    reviewedOn: review?.reviewedOn ?? "",
    reply: review?.reply ?? "",
    repliedAt: iso(review?.repliedAt),
    createdAt: iso(review?.createdAt),
    reviewedAt: iso(review?.reviewedAt),
  };
}

export function toProject(project: Project | undefined) {
  if (!project) return null;
  return {
    projectId: project.projectId,
    projectTitle: project.projectTitle,
    profileId: project.profileId,
    createdAt: iso(project.createdAt),
    role: project.role || "owner",
  };
}

export const toCheckList = (items: CheckListItem[]) => items.map(({ key, title, done }) => ({ key, title, done }));

export function toCraftSummary(summary: CraftSummary | undefined) {
  return {
    craftId: summary?.craftId ?? "",
    craftName: summary?.craftName ?? "",
    workflowName: summary?.workflowName ?? "",
    projectId: summary?.projectId ?? "",
    profileId: summary?.profileId ?? "",
    state: summary?.state ?? "",
    favorite: summary?.favorite ?? false,
    createdAt: iso(summary?.createdAt),
    updatedAt: iso(summary?.updatedAt),
  };
}

export function toCraft(craft: Craft | undefined) {
  return {
    ...toCraftSummary(craft?.summary),
    version: craft?.version ?? 1,
    profileId: craft?.profileId ?? "",
    currentStep: craft?.currentStep ?? "",
    steps: craft?.steps ?? [],
  };
}

/** activeProjectInfo of spec section 3; `projectId: null` when the user has no project yet. */
export function toActiveProjectInfo(active: GetActiveProjectResponse, crafts: CraftSummary[]) {
  return {
    projectId: active.projectId ?? null,
    projectTitle: active.projectTitle,
    profile: toProfile(active.profile),
    projectCheckList: toCheckList(active.checkList),
    crafts: crafts.map(toCraftSummary),
    isCreatingProject: false,
    resetProject: false,
  };
}

export function toHeaders(headers: GetHeadersResponse) {
  return {
    names: headers.names,
    headers: headers.headers.map(({ name, title, description, category, version, available, standalone, isNew }) => ({
      name,
      title,
      description,
      category,
      version,
      available,
      standalone,
      new: isNew,
    })),
    defaultVersions: headers.defaultVersions,
    toolsList: headers.toolsList,
    newToolsList: headers.newToolsList,
  };
}
