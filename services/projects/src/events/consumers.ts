import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { CraftCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { ProjectsDeps } from "../deps";
import { countCraft } from "../usecases/count-craft";

/** The projects service's Kafka consumers: crafts are counted per project for the check-list. */
export function projectsConsumers(namespace: string, deps: ProjectsDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.workflowsCraft)],
    handlers: [on(CraftCreatedSchema, (event) => countCraft(deps, event))],
  };
}
