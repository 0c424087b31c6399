import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import { ProjectCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";

/** Builds the events of the project aggregate (topic `<ns>.projects.project.v1`, key = project id), as outbox entries. */
export class ProjectEvents {
  readonly topic: string;

  constructor(namespace: string) {
    this.topic = topicName(namespace, TOPICS.projectsProject);
  }

  created(project: { userId: string; projectId: string; projectTitle: string; profileId: string }): OutboxEntry {
    return outboxEntry(this.topic, project.projectId, ProjectCreatedSchema, {
      userId: project.userId,
      projectId: project.projectId,
      projectTitle: project.projectTitle,
      profileId: project.profileId,
    });
  }
}
