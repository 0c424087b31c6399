import type { Logger } from "@crafter/kit";
import type { BillingStores } from "../store";
import type { FreeTier } from "./grant-free-credits";
import type { KeyedQueue } from "./keyed-queue";

/** What the billing use cases need; built once in main.ts. */
export interface BillingDeps {
  stores: BillingStores;
  /** Queues each user's ledger writes in this process (by user id). */
  writers: KeyedQueue;
  /** Topic of CreditsChanged (`<namespace>.billing.credits.v1`). */
  creditsTopic: string;
  /** Asks the outbox relay to publish now (after a write that added an event). */
  kick(): void;
  logger: Logger;
  /** The clock (injected so tests can fix it). */
  now(): Date;
  /** The free tier's grant (FREE_CREDITS, FREE_CREDITS_DAYS). */
  freeTier: FreeTier;
}

/** How many times a write retries after losing the race for the user's next seq. */
export const MAX_APPEND_ATTEMPTS = 200;

/** A short random pause between attempts, so writers that collided do not collide again in step. */
export function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(50, 2 * attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
