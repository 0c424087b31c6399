import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type OutboxEntry, outboxEntry } from "@crafter/kit";
import { LimitReachedSchema } from "@crafter/proto/crafter/events/v1/billing_pb";
import { CreditsChangedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { EntryKind } from "../domain/ledger";

// The events billing publishes, as outbox entries committed with the ledger entry they describe.

/** The CreditsChanged event of one ledger entry, to store in the entry's outbox. */
export function creditsChanged(
  topic: string,
  change: {
    userId: string;
    entryId: string;
    seq: number;
    kind: EntryKind;
    delta: number;
    balance: number;
    expiresAt: Date | null;
    at: Date;
  },
): OutboxEntry {
  return outboxEntry(topic, change.userId, CreditsChangedSchema, {
    userId: change.userId,
    entryId: change.entryId,
    seq: change.seq,
    kind: change.kind,
    delta: change.delta,
    balance: change.balance,
    expiresAt: change.expiresAt ? timestampFromDate(change.expiresAt) : undefined,
    occurredAt: timestampFromDate(change.at),
  });
}

/** The LimitReached event of a refused reservation, stored once per user, counter and month. */
export function limitReached(
  topic: string,
  reached: { userId: string; counter: string; tier: string; limit: number; period: string; scenario: string; at: Date },
): OutboxEntry {
  return outboxEntry(topic, reached.userId, LimitReachedSchema, {
    userId: reached.userId,
    counter: reached.counter,
    tier: reached.tier,
    limit: reached.limit,
    period: reached.period,
    scenario: reached.scenario,
    occurredAt: timestampFromDate(reached.at),
  });
}
