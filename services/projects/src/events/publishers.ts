import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  ProfileUpdatedSchema,
  ProjectCreatedSchema,
  ProjectDeletedSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";
import { ProjectMemberInvitedSchema } from "@crafter/proto/crafter/events/v1/project_members_pb";
import { ReviewReceivedSchema } from "@crafter/proto/crafter/events/v1/reviews_pb";

/**
 * Builds the events of the project aggregate (topic `<ns>.projects.project.v1`, key = project id), as
 * outbox entries. A profile is part of its project: its ProfileUpdated is keyed by the project too,
 * so a consumer sees it in order with the project's ProjectDeleted.
 */
export class ProjectEvents {
  readonly topic: string;

  constructor(namespace: string) {
    this.topic = topicName(namespace, TOPICS.projectsProject);
  }

  created(project: {
    userId: string;
    projectId: string;
    projectTitle: string;
    profileId: string;
    timeZone: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, project.projectId, ProjectCreatedSchema, {
      userId: project.userId,
      projectId: project.projectId,
      projectTitle: project.projectTitle,
      profileId: project.profileId,
      timeZone: project.timeZone,
    });
  }

  /** A profile's fields or sections changed; `changed` names the keys. `timeZone`: the business's, after the change. */
  profileUpdated(
    profile: { userId: string; projectId: string; id: string; type: string; name: string; timeZone?: string },
    changed: string[],
  ): OutboxEntry {
    return outboxEntry(this.topic, profile.projectId, ProfileUpdatedSchema, {
      userId: profile.userId,
      projectId: profile.projectId,
      profileId: profile.id,
      profileType: profile.type,
      name: profile.name,
      changed,
      timeZone: profile.type === "PROJECT" ? (profile.timeZone ?? "") : "",
    });
  }

  deleted(project: { userId: string; id: string; title: string }): OutboxEntry {
    return outboxEntry(this.topic, project.id, ProjectDeletedSchema, {
      userId: project.userId,
      projectId: project.id,
      projectTitle: project.title,
    });
  }

  /** An owner invited someone to the project; notifications emails them the link. */
  memberInvited(invite: {
    projectId: string;
    projectTitle: string;
    inviteId: string;
    email: string;
    role: string;
    token: string;
    expiresAt: Date;
    inviterName: string;
  }): OutboxEntry {
    const ms = invite.expiresAt.getTime();
    return outboxEntry(this.topic, invite.projectId, ProjectMemberInvitedSchema, {
      ...invite,
      expiresAt: { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 },
    });
  }

  /** A review came in from the project's Google Business Profile location for the first time. */
  reviewReceived(review: {
    userId: string;
    projectId: string;
    reviewId: string;
    remoteReviewId: string;
    location: string;
    author: string;
    rating: number;
    text: string;
    reviewedAt: Date | null;
  }): OutboxEntry {
    const ms = review.reviewedAt?.getTime();
    return outboxEntry(this.topic, review.projectId, ReviewReceivedSchema, {
      userId: review.userId,
      projectId: review.projectId,
      reviewId: review.reviewId,
      source: "google",
      remoteReviewId: review.remoteReviewId,
      location: review.location,
      author: review.author,
      rating: review.rating,
      text: review.text,
      ...(ms !== undefined
        ? { reviewedAt: { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 } }
        : {}),
    });
  }
}
