import type { Logger, ShopifyStore } from "@crafter/kit";
import type { LanguageModel } from "ai";
import type { PlanSource } from "./clients/plans";
import type { ContactsEvents } from "./events/publishers";
import type { ContactsStores } from "./store";

/** What the contacts use cases need; built once in main.ts. */
export interface ContactsDeps {
  stores: ContactsStores;
  /** Builders of the events this service publishes (outbox entries). */
  events: ContactsEvents;
  /** The plan's profile limit (billing's GetPlan). */
  plans: PlanSource;
  /** Signed contact links: the HMAC key (CONTACTS_LINK_SECRET) and the web origin they point to. */
  links: { secret: string; origin: string };
  /**
   * The lead assistant's AI model and its deadline in ms (AI_TIMEOUT_MS, retries included);
   * undefined: it answers from the profile's own text.
   */
  assistantModel?: { model: LanguageModel; timeoutMs: number };
  /**
   * Waits for the next "Ask for permission" email's slot: the kit's `pace()` over Redis, so the
   * rate holds across replicas (CONSENT_ASKS_PER_SECOND in all, CONSENT_ASKS_PER_USER_SECOND per user).
   */
  paceConsentAsk: (userId: string) => Promise<number>;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  /**
   * Queues a started import's run (jobs/import-queue.ts, BullMQ); `resumed` when it may have run
   * before without its job (Redis lost it), so its rows already applied are looked up first.
   */
  enqueueImport: (importId: string, resumed?: boolean) => Promise<void>;
  /** The project's Shopify store (account's connection), whose customers become contacts. */
  shopify: ShopifyStore;
  logger: Logger;
  now: () => Date;
}
