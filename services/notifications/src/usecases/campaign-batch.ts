import { ProviderError } from "../mail/providers";
import type { DeliveryDoc } from "../store/email.repository";
import {
  attemptFact,
  type DeliveryContent,
  type DeliveryDeps,
  messageOf,
  type PreparedSend,
  prepareSend,
  recordFailure,
  type SendRoute,
  sendTries,
  sentFact,
} from "./email-delivery";

/** Milliseconds a campaign round spent in each stage of its batches (summed over batches in flight). */
export interface RoundTimings {
  /** Contacts' links and the email composed (smart values, tracking links, footer, text part). */
  compose: number;
  /** Waiting for the Redis-wide pace of the provider and the account. */
  pace: number;
  /** The batch's `attempt` facts, one unordered insert. */
  claim: number;
  /** Messages handed to the provider (`concurrency` at a time over pooled connections). */
  provider: number;
  /** The batch's `sent` facts with their EmailSent outbox entries, one unordered insert. */
  record: number;
  sent: number;
}

export const emptyTimings = (): RoundTimings => ({ compose: 0, pace: 0, claim: 0, provider: 0, record: 0, sent: 0 });

/** `now` minus `before`, stage by stage, in whole ms (for the round's and the batches' log lines). */
export function roundedSince(before: RoundTimings, now: RoundTimings): RoundTimings {
  const keys = Object.keys(now) as Array<keyof RoundTimings>;
  return Object.fromEntries(keys.map((key) => [key, Math.round(now[key] - before[key])])) as unknown as RoundTimings;
}

/**
 * Deliveries per batch: `max` (EMAIL_BATCH_SIZE), but no more than a fifth of a second's worth of
 * the provider's or account's rate, so a batch taken from the pace at once stays a short burst and
 * its attempts reach the provider long before their lease runs out.
 */
export function batchSizeOf(max: number, perSecond: number | undefined): number {
  const byRate = perSecond ? Math.floor(perSecond / 5) : max;
  return Math.max(1, Math.min(max, byRate));
}

/** Runs `work` on every item, at most `limit` at once; results in input order. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(items.length, Math.max(1, limit)) }, lane));
  return results;
}

/**
 * Sends a batch of a campaign's deliveries that no worker has tried yet, exactly once each:
 * 1. every email is composed (links and tracking), then the batch's share of the Redis-wide pace is
 *    waited for;
 * 2. the first attempt of every delivery is claimed in one unordered insert behind the facts'
 *    unique ids (a claim another worker won is left to it), right before the hand-off, so an attempt
 *    without an outcome is one whose message may have left;
 * 3. the claimed messages go to the provider `deps.email.concurrency` at a time (pooled SMTP
 *    connections); a message whose claim is older than half the lease (a slow provider) first
 *    claims a fresh attempt of its own, so no claim reaches the provider expired;
 * 4. the `sent` facts (each with EmailSent in its outbox) are recorded in one unordered insert;
 *    a failed message is tried again one by one (sendTries: backoff, its own attempt each) or,
 *    when the error is permanent, recorded `failed` with its reserved email released.
 */
export async function sendBatch(
  deps: DeliveryDeps,
  items: ReadonlyArray<{ delivery: DeliveryDoc; content: DeliveryContent }>,
  route: SendRoute,
  timings: RoundTimings,
): Promise<void> {
  if (items.length === 0) return;
  const repo = deps.stores.email;
  const concurrency = Math.max(1, deps.email.concurrency);
  let mark = performance.now();
  const own = emptyTimings();
  const lap = (stage: Exclude<keyof RoundTimings, "sent">) => {
    const now = performance.now();
    timings[stage] += now - mark;
    own[stage] += now - mark;
    mark = now;
  };

  const prepared = await bounded(items, concurrency, ({ delivery, content }) =>
    prepareSend(deps, delivery, content, route),
  );
  lap("compose");
  await route.throttle.take(items[0]!.delivery.userId, prepared.length);
  lap("pace");
  const claimedAt = performance.now();
  const claims = await repo.addFacts(
    prepared.map((p) => attemptFact(p.delivery, 1)),
    deps.now(),
  );
  lap("claim");
  const claimed = prepared.filter((_, i) => claims[i]);
  type Outcome =
    | { kind: "sent"; p: PreparedSend; messageId: string }
    | { kind: "error"; p: PreparedSend; error: unknown }
    | { kind: "alone"; p: PreparedSend };
  const outcomes = await bounded(claimed, concurrency, async (p: PreparedSend): Promise<Outcome> => {
    if (performance.now() - claimedAt > deps.email.attemptLeaseMs / 2) {
      // Its claim may expire before the hand-off: it goes alone under a fresh attempt of its own
      // (the unique id of attempt 2 tells a takeover apart; attempt 1's message never left).
      await sendTries(deps, p, { claimed: 1, resent: false, tried: 0, lastError: "" });
      return { kind: "alone", p };
    }
    try {
      return { kind: "sent", p, messageId: (await p.provider.send(messageOf(deps, p))).messageId };
    } catch (error) {
      return { kind: "error", p, error };
    }
  });
  lap("provider");
  const sent = outcomes.flatMap((o) => (o.kind === "sent" ? [o] : []));
  await repo.addFacts(
    sent.map((o) => sentFact(deps, o.p.delivery, o.p.provider.name, o.messageId)),
    deps.now(),
  );
  lap("record");
  deps.logger.debug({ deliveries: items.length, ms: roundedSince(emptyTimings(), own) }, "campaign batch");
  timings.sent += sent.length;
  if (sent.length > 0) deps.email.kick();
  const alone = outcomes.filter((o) => o.kind === "alone").length;
  if (alone > 0) deps.logger.warn({ alone }, "campaign batch claims neared their lease: sent one by one");

  await Promise.all(
    outcomes.map(async (o) => {
      if (o.kind !== "error") return;
      const lastError = o.error instanceof Error ? o.error.message : String(o.error);
      if (o.error instanceof ProviderError && o.error.permanent) {
        await recordFailure(deps, o.p.delivery, lastError, null);
        return;
      }
      deps.logger.warn({ deliveryId: o.p.delivery._id, attempt: 1, err: lastError }, "email send failed");
      await sendTries(deps, o.p, { claimed: 1, resent: false, tried: 1, lastError });
    }),
  );
}
