import { ProviderError, pausesSending } from "../mail/providers";
import type { DeliveryDoc } from "../store/email.repository";
import {
  attemptFact,
  type DeliveryContent,
  type DeliveryDeps,
  type DeliveryOutcome,
  heldFact,
  messageOf,
  prepareSend,
  recordFailure,
  type SendRoute,
  sendTries,
  sentFact,
} from "./email-delivery";

/** Milliseconds a campaign round's deliveries spent in each stage (summed over the lanes in flight). */
export interface RoundTimings {
  /** Contacts' links and the email composed (smart values, tracking links, footer, text part). */
  compose: number;
  /** Waiting for the Redis-wide pace of the provider and the account. */
  pace: number;
  /** Waiting for one of the process's EMAIL_CONCURRENCY hand-off slots. */
  slot: number;
  /** The `attempt` fact (grouped with the other lanes' facts in one insert). */
  claim: number;
  /** The message handed to the provider (pooled SMTP connections). */
  provider: number;
  /** The `sent` fact with its EmailSent outbox entry (grouped likewise). */
  record: number;
  sent: number;
}

export const emptyTimings = (): RoundTimings => ({
  compose: 0,
  pace: 0,
  slot: 0,
  claim: 0,
  provider: 0,
  record: 0,
  sent: 0,
});

/** The timings in whole ms (for the round's log line). */
export function rounded(timings: RoundTimings): RoundTimings {
  const keys = Object.keys(timings) as Array<keyof RoundTimings>;
  return Object.fromEntries(keys.map((key) => [key, Math.round(timings[key])])) as unknown as RoundTimings;
}

/** A counting semaphore: at most `size` holders at once, the others queued in order. */
class Slots {
  private held = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async acquire(): Promise<void> {
    if (this.held < this.size) {
      this.held += 1;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held -= 1;
  }
}

// One set of slots per process (per email deps): however many campaign rounds and parts run here,
// at most EMAIL_CONCURRENCY messages are between their claim and their `sent` record, so a crash
// leaves at most that many messages that may have left unrecorded.
const slotsOf = new WeakMap<object, Slots>();
function slotsFor(deps: DeliveryDeps): Slots {
  let slots = slotsOf.get(deps.email);
  if (!slots) {
    slots = new Slots(Math.max(1, deps.email.concurrency));
    slotsOf.set(deps.email, slots);
  }
  return slots;
}

/**
 * Sends one campaign delivery that no worker has tried yet, exactly once:
 * 1. the email is composed (links and tracking) and the Redis-wide pace of the provider and the
 *    account waited for;
 * 2. in one of the process's hand-off slots: its first attempt is claimed (an insert behind the
 *    fact's unique id, grouped with other lanes' facts; a claim another worker won is left to it,
 *    "busy") right before the hand-off, so an attempt without an outcome is one whose message may
 *    have left; the message goes to the provider; `sent` (with EmailSent) is recorded, grouped too;
 * 3. a failed try goes on one by one (sendTries: backoff, a new attempt each) or, when the error is
 *    permanent, is recorded `failed` with its reserved email released.
 */
export async function sendFresh(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  route: SendRoute,
  timings: RoundTimings,
): Promise<DeliveryOutcome> {
  const repo = deps.stores.email;
  let mark = performance.now();
  const lap = (stage: Exclude<keyof RoundTimings, "sent">) => {
    const now = performance.now();
    timings[stage] += now - mark;
    mark = now;
  };
  const prepared = await prepareSend(deps, delivery, content, route);
  lap("compose");
  await route.throttle.take(delivery.userId);
  lap("pace");
  const slots = slotsFor(deps);
  await slots.acquire();
  lap("slot");
  let failure: unknown;
  try {
    if (!(await repo.addFactSoon(attemptFact(delivery, 1), deps.now()))) return "busy";
    lap("claim");
    let messageId: string | undefined;
    try {
      ({ messageId } = await route.provider.send(messageOf(deps, prepared)));
    } catch (error) {
      failure = error;
    }
    lap("provider");
    if (messageId !== undefined) {
      // A failure to record throws: the attempt stays without an outcome, as the message may have
      // left, and a takeover after the lease resends it counted as a possible duplicate.
      const { event, ...fact } = sentFact(deps, delivery, route.provider.name, messageId);
      await repo.addFactSoon(fact, deps.now(), event);
      lap("record");
      timings.sent += 1;
      deps.email.kick();
      return "sent";
    }
  } finally {
    slots.release();
  }
  const lastError = failure instanceof Error ? failure.message : String(failure);
  if (pausesSending(failure)) {
    await repo.addFact(heldFact(delivery, 1, lastError), deps.now());
    return "paused";
  }
  if (failure instanceof ProviderError && failure.permanent) {
    await recordFailure(deps, delivery, lastError, null);
    return "failed";
  }
  deps.logger.warn({ deliveryId: delivery._id, attempt: 1, err: lastError }, "email send failed");
  return sendTries(deps, prepared, { claimed: 1, resent: false, tried: 1, lastError });
}
