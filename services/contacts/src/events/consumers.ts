import type { ServiceParts } from "@crafter/kit";
import type { ContactsDeps } from "../deps";

/**
 * The contacts service's Kafka consumers. It consumes none yet: to add one, list the topic under
 * its `consumes` in services/manifest.yaml and return
 * `{ topics: [topicName(namespace, TOPICS.x)], handlers: [on(Schema, (event) => useCase(deps, event))] }`.
 */
export function contactsConsumers(_namespace: string, _deps: ContactsDeps): ServiceParts["consumers"] {
  return undefined;
}
