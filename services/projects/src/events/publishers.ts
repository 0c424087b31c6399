import { TOPICS, topicName } from "@crafter/kit";

/** Topics the projects service publishes to (ProjectCreated, via the project outbox). */
export function projectsTopics(namespace: string): string[] {
  return [topicName(namespace, TOPICS.projectsProject)];
}
