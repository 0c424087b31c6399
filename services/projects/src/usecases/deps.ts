import type { Logger } from "@crafter/kit";
import type { ProjectsStores } from "../store";

/** What the projects use cases need: the repositories, the namespace of topics, the relay and the logger. */
export interface ProjectsDeps extends ProjectsStores {
  /** Prefix of Kafka topics (CRAFTER_NAMESPACE). */
  namespace: string;
  /** Asks the outbox relay to publish now, after a write that pushed an event. */
  kickRelay(): void;
  logger: Logger;
}
