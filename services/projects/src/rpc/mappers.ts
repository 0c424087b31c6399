import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import {
  type CheckListItemSchema,
  type GoogleBusinessSchema,
  type ProfileSchema,
  ProfileType,
  type ProjectSchema,
  type ReviewSchema,
} from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { CheckListItem } from "../domain/check-list";
import type { GoogleLocationDoc } from "../store/google-location.repository";
import type { Profile, ProfileTypeName } from "../store/profile.repository";
import type { Project } from "../store/project.repository";
import type { Review } from "../store/review.repository";
import { withSectionDefaults } from "../usecases/sections";

const PROFILE_TYPE: Record<ProfileTypeName, ProfileType> = {
  PROJECT: ProfileType.PROJECT,
  PRODUCT: ProfileType.PRODUCT,
  SERVICE: ProfileType.SERVICE,
  CAMPAIGN: ProfileType.CAMPAIGN,
};

/** A Date as a google.protobuf.Timestamp init (seconds + nanos). */
export function timestamp(date: Date): { seconds: bigint; nanos: number } {
  const ms = new Date(date).getTime();
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000 };
}

/** @param role the caller's role on it (owner, or a team member's). */
export function projectMessage(project: Project, role = "owner"): MessageInitShape<typeof ProjectSchema> {
  return {
    projectId: project.id,
    projectTitle: project.title,
    profileId: project.profileId,
    createdAt: timestamp(project.createdAt),
    role,
  };
}

export function profileMessage(profile: Profile): MessageInitShape<typeof ProfileSchema> {
  return {
    profileId: profile.id,
    projectId: profile.projectId,
    type: PROFILE_TYPE[profile.type] ?? ProfileType.UNSPECIFIED,
    name: profile.name,
    description: profile.description,
    audience: profile.audience,
    keywords: profile.keywords,
    websiteUrl: profile.websiteUrl,
    fields: (profile.fields ?? {}) as JsonObject,
    sections: withSectionDefaults(profile.sections) as JsonObject,
    updatedAt: profile.updatedAt ? timestamp(profile.updatedAt) : undefined,
    source: profile.source ?? "",
    mediaAssetIds: profile.mediaAssetIds ?? [],
  };
}

/** A ProfileType message value as the spec's name (UNSPECIFIED → undefined). */
export function profileTypeName(type: ProfileType): ProfileTypeName | undefined {
  return (Object.entries(PROFILE_TYPE) as [ProfileTypeName, ProfileType][]).find(([, value]) => value === type)?.[0];
}

export function reviewMessage(review: Review): MessageInitShape<typeof ReviewSchema> {
  return {
    reviewId: review.id,
    projectId: review.projectId,
    author: review.author,
    rating: review.rating,
    text: review.text,
    source: review.source,
    reviewedOn: review.reviewedOn,
    reply: review.reply,
    repliedAt: review.repliedAt ? timestamp(review.repliedAt) : undefined,
    createdAt: timestamp(review.createdAt),
    reviewedAt: review.reviewedAt ? timestamp(review.reviewedAt) : undefined,
  };
}

export function checkListMessage(items: CheckListItem[]): MessageInitShape<typeof CheckListItemSchema>[] {
  return items.map(({ key, title, done }) => ({ key, title, done }));
}

/** A project's Google Business Profile state as the GoogleBusiness message. */
export function googleBusinessMessage(state: {
  connection: string;
  location: GoogleLocationDoc | null;
}): MessageInitShape<typeof GoogleBusinessSchema> {
  const location = state.location;
  return {
    connection: state.connection,
    ...(location
      ? {
          location: {
            name: location.location,
            account: location.account,
            title: location.title,
            address: location.address,
          },
          lastSyncedAt: location.lastSyncedAt ? timestamp(location.lastSyncedAt) : undefined,
          averageRating: location.averageRating,
          totalReviewCount: location.totalReviewCount,
          lastError: location.lastError,
        }
      : {}),
  };
}
