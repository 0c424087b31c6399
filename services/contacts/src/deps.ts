import type { Logger } from "@crafter/kit";
import type { PlanSource } from "./clients/plans";
import type { ContactsEvents } from "./events/publishers";
import type { ContactsStores } from "./store";

/** What the contacts use cases need; built once in main.ts. */
export interface ContactsDeps {
  stores: ContactsStores;
  /** Builders of the events this service publishes (outbox entries). */
  events: ContactsEvents;
  /** The plan's profile limit (billing). */
  plans: PlanSource;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
}
