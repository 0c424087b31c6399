import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import {
  type CheckListItemSchema,
  type ProfileSchema,
  ProfileType,
  type ProjectSchema,
} from "@crafter/proto/crafter/projects/v1/projects_pb";
import type { CheckListItem } from "../domain/check-list";
import type { Profile, ProfileTypeName } from "../store/profile.repository";
import type { Project } from "../store/project.repository";

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

export function projectMessage(project: Project): MessageInitShape<typeof ProjectSchema> {
  return {
    projectId: project.id,
    projectTitle: project.title,
    profileId: project.profileId,
    createdAt: timestamp(project.createdAt),
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
  };
}

export function checkListMessage(items: CheckListItem[]): MessageInitShape<typeof CheckListItemSchema>[] {
  return items.map(({ key, title, done }) => ({ key, title, done }));
}
