import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type OutboxEntry, outboxEntry } from "@crafter/kit";
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
