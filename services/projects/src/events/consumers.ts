import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { CraftCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { countCraft } from "../usecases/count-craft";
import type { ProjectsDeps } from "../usecases/deps";

/** The projects service's Kafka consumers: crafts are counted per project for the check-list. */
export function projectsConsumers(deps: ProjectsDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(deps.namespace, TOPICS.workflowsCraft)],
    handlers: [on(CraftCreatedSchema, (event) => countCraft(deps, event))],
  };
}
