import type { ServiceParts } from "@crafter/kit";
import type { MediaDeps } from "../deps";

/**
 * The media service's Kafka consumers. It consumes none yet: to add one, list the topic under
 * its `consumes` in services/manifest.yaml and return
 * `{ topics: [topicName(namespace, TOPICS.x)], handlers: [on(Schema, (event) => useCase(deps, event))] }`.
 */
export function mediaConsumers(_namespace: string, _deps: MediaDeps): ServiceParts["consumers"] {
  return undefined;
}
