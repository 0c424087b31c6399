import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { ProjectDeletedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { WorkflowsDeps } from "../deps";
import { deleteProjectCrafts } from "../usecases/delete-project-crafts";

/** The workflows service's Kafka consumers: a deleted project's crafts go with it. */
export function workflowsConsumers(namespace: string, deps: WorkflowsDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.projectsProject)],
    handlers: [
      on(ProjectDeletedSchema, async (event) => {
        await deleteProjectCrafts(deps, event);
      }),
    ],
  };
}
