import type { Logger } from "@crafter/kit";
import type { MediaEvents } from "./events/publishers";
import type { MediaStores } from "./store";

/** What the media use cases need; built once in main.ts. */
export interface MediaDeps {
  stores: MediaStores;
  /** Builders of the events this service publishes (outbox entries). */
  events: MediaEvents;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
}
