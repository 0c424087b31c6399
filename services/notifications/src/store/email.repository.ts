import { createHash } from "node:crypto";
import {
  idField,
  insertEachOnce,
  insertOnce,
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * Marketing email delivery, append-only (FerretDB has no update isolation):
 * - `email_deliveries`: one document per recipient and send, `_id` derived from its key (unique),
 *   inserted once and never changed;
 * - `email_facts`: what happened to a delivery, one document per fact, `_id` = `<deliveryId>:<fact>`,
 *   inserted once (an attempt, resent, sent, failed, skipped, opened, clicked, bounced, complained). A
 *   delivery's state is the set of its facts; two workers racing for the same fact, one wins.
 * Facts that are events carry their outbox entry in the same insert.
 */

/** `a`/`b` are the two subjects of an A/B test; `main` everyone else (the winner's subject, or the only one). */
export type Variant = "main" | "a" | "b";

export interface DeliveryDoc {
  _id: string;
  /** The caller's idempotency key (unique): `campaign:<id>:<contactId>` or `auto:<userId>:<key>`. */
  key: string;
  userId: string;
  projectId: string;
  campaignId: string;
  automationId: string;
  contactId: string;
  email: string;
  firstName: string;
  lastName: string;
  variant: Variant;
  /** Automation sends carry their content; campaign sends read the campaign's. */
  subject: string;
  preheader: string;
  html: string;
  /**
   * A campaign sent at each contact's local time: the instant this recipient's wall clock reaches
   * the scheduled time. Absent: sent as soon as the campaign sends.
   */
  releaseAt?: Date;
  createdAt: Date;
}

export type FactKind =
  | "attempt"
  /** An attempt the provider refused for the account's key (sending paused): nothing left, the delivery waits. */
  | "held"
  /** An automation's delivery waiting for its business's provider (removed once it has an outcome). */
  | "waiting"
  | "resent"
  | "reserved"
  | "sent"
  | "failed"
  | "skipped"
  | "opened"
  | "clicked"
  | "bounced"
  | "complained"
  | "delivered";

export interface FactDoc {
  _id: string;
  deliveryId: string;
  campaignId: string;
  kind: FactKind;
  at: Date;
  /**
   * failed: the error; skipped: the reason; clicked: the URL; sent: the provider and Message-ID;
   * attempt: the worker (host:pid); resent: which attempt expired.
   */
  detail: string;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: idField,
    key: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    campaignId: { type: String, default: "" },
    automationId: { type: String, default: "" },
    contactId: { type: String, default: "" },
    email: { type: String, default: "" },
    firstName: { type: String, default: "" },
    lastName: { type: String, default: "" },
    variant: { type: String, default: "main" },
    subject: { type: String, default: "" },
    preheader: { type: String, default: "" },
    html: { type: String, default: "" },
    releaseAt: { type: Date },
    createdAt: { type: Date, required: true },
  },
  { collection: "email_deliveries", versionKey: false, minimize: false },
);
deliverySchema.index({ campaignId: 1 });

const factSchema = new Schema<FactDoc>(
  {
    _id: idField,
    deliveryId: { type: String, required: true },
    campaignId: { type: String, default: "" },
    kind: { type: String, required: true },
    at: { type: Date, required: true },
    detail: { type: String, default: "" },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "email_facts", versionKey: false, minimize: false },
);
factSchema.index({ campaignId: 1, kind: 1 });
factSchema.index({ deliveryId: 1 });

/** A delivery's id: a digest of its key, so the same key always names the same delivery. */
export function deliveryIdOf(key: string): string {
  return `d${createHash("sha256").update(key).digest("hex").slice(0, 31)}`;
}

/** Facts that end a delivery: nothing more is sent once one exists. */
export const FINAL_FACTS: readonly FactKind[] = ["sent", "failed", "skipped"];

export type NewDelivery = Omit<DeliveryDoc, "_id" | "createdAt">;

export class EmailRepository {
  constructor(
    readonly deliveries: Model<DeliveryDoc>,
    readonly facts: Model<FactDoc>,
  ) {}

  /**
   * Records a delivery once per key.
   * @returns the delivery and whether this call created it.
   */
  async recordDelivery(input: NewDelivery, at: Date): Promise<{ delivery: DeliveryDoc; created: boolean }> {
    const doc: DeliveryDoc = { ...input, _id: deliveryIdOf(input.key), createdAt: at };
    if (await insertOnce(this.deliveries, doc)) return { delivery: doc, created: true };
    const existing = await this.deliveries.findById(doc._id).lean<DeliveryDoc>();
    if (!existing) throw new Error(`delivery ${doc._id} exists but cannot be read`);
    return { delivery: existing, created: false };
  }

  /** Records many deliveries at once (a campaign's recipients); existing keys are left as they are. */
  async recordDeliveries(inputs: NewDelivery[], at: Date): Promise<void> {
    if (inputs.length === 0) return;
    const docs = inputs.map((input) => ({ ...input, _id: deliveryIdOf(input.key), createdAt: at }));
    try {
      await this.deliveries.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!isDuplicateKey(error) && !allDuplicates(error)) throw error;
    }
  }

  async delivery(id: string): Promise<DeliveryDoc | null> {
    return this.deliveries.findById(id).lean<DeliveryDoc>();
  }

  /** Every delivery of a campaign (ids, contacts and variants). */
  async campaignDeliveries(campaignId: string): Promise<DeliveryDoc[]> {
    return this.deliveries.find({ campaignId }, { html: 0 }).lean<DeliveryDoc[]>();
  }

  /** How many of a campaign's deliveries are released at `now` (no release instant, or one that has come). */
  async countReleased(campaignId: string, now: Date): Promise<number> {
    return this.deliveries.countDocuments({
      campaignId,
      $or: [{ releaseAt: { $exists: false } }, { releaseAt: null }, { releaseAt: { $lte: now } }],
    });
  }

  /** How many of a campaign's deliveries have an outcome (sent, failed or skipped). */
  async countFinal(campaignId: string): Promise<number> {
    return this.facts.countDocuments({ campaignId, kind: { $in: [...FINAL_FACTS] } });
  }

  /** The release instants of a campaign's deliveries (absent: released with the campaign). */
  async releases(campaignId: string): Promise<Array<{ releaseAt?: Date }>> {
    return this.deliveries.find({ campaignId }, { _id: 0, releaseAt: 1 }).lean<Array<{ releaseAt?: Date }>>();
  }

  /**
   * Adds a fact once.
   * @param suffix distinguishes repeatable facts (attempt 1, 2…); the id is `<deliveryId>:<kind>[:<suffix>]`.
   * @returns false when that fact was already recorded.
   */
  async addFact(
    fact: { deliveryId: string; campaignId: string; kind: FactKind; detail?: string; suffix?: string },
    at: Date,
    event?: OutboxEntry,
  ): Promise<boolean> {
    return insertOnce(this.facts, factDocument(fact, at, event));
  }

  /**
   * Adds a fact once, like `addFact`, but written together with the facts other callers add
   * meanwhile (group commit: one unordered insert per flush, the next flush taking whatever
   * arrived during this one). Each caller waits for its own fact's write, so nothing is reported
   * recorded before it is; under a slow database the groups grow instead of the queue.
   * @returns false when that fact was already recorded.
   */
  addFactSoon(
    fact: { deliveryId: string; campaignId: string; kind: FactKind; detail?: string; suffix?: string },
    at: Date,
    event?: OutboxEntry,
  ): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ doc: factDocument(fact, at, event), resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private waiting: Array<{ doc: FactDoc; resolve: (added: boolean) => void; reject: (error: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        const added = await insertEachOnce(
          this.facts,
          group.map((entry) => entry.doc),
        );
        for (const [i, entry] of group.entries()) entry.resolve(added[i]!);
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
    this.flushing = undefined;
  }

  /** The facts of one delivery, oldest first. */
  /** Automation deliveries waiting for their business's provider (their `waiting` markers), at most `limit`. */
  async waitingDeliveries(limit: number): Promise<string[]> {
    const facts = await this.facts.find({ kind: "waiting" }, { deliveryId: 1 }).limit(limit).lean<FactDoc[]>();
    return facts.map((fact) => fact.deliveryId);
  }

  /** Removes a delivery's `waiting` marker (it has an outcome now). */
  async stopWaiting(deliveryId: string): Promise<void> {
    await this.facts.deleteOne({ _id: `${deliveryId}:waiting` });
  }

  async factsOf(deliveryId: string): Promise<FactDoc[]> {
    return this.facts.find({ deliveryId }, { outbox: 0 }).sort({ at: 1 }).lean<FactDoc[]>();
  }

  /** The facts of a campaign of the given kinds (no outbox). */
  async campaignFacts(campaignId: string, kinds: readonly FactKind[]): Promise<FactDoc[]> {
    return this.facts.find({ campaignId, kind: { $in: [...kinds] } }, { outbox: 0 }).lean<FactDoc[]>();
  }

  /** How many facts of each kind a campaign has. */
  async countFacts(campaignId: string): Promise<Partial<Record<FactKind, number>>> {
    const kinds: FactKind[] = [
      "sent",
      "failed",
      "skipped",
      "opened",
      "clicked",
      "bounced",
      "complained",
      "delivered",
      "resent",
    ];
    const counts = await Promise.all(kinds.map((kind) => this.facts.countDocuments({ campaignId, kind })));
    return Object.fromEntries(kinds.map((kind, index) => [kind, counts[index]]));
  }

  async countDeliveries(campaignId: string): Promise<number> {
    return this.deliveries.countDocuments({ campaignId });
  }
}

/** A fact's document: `_id` = `<deliveryId>:<kind>[:<suffix>]`, with its event's outbox entry. */
function factDocument(
  fact: { deliveryId: string; campaignId: string; kind: FactKind; detail?: string; suffix?: string },
  at: Date,
  event?: OutboxEntry,
): FactDoc {
  return {
    _id: `${fact.deliveryId}:${fact.kind}${fact.suffix ? `:${fact.suffix}` : ""}`,
    deliveryId: fact.deliveryId,
    campaignId: fact.campaignId,
    kind: fact.kind,
    at,
    detail: (fact.detail ?? "").slice(0, 2000),
    outbox: event ? [event] : [],
    ...(event ? { outboxMinute: outboxMinuteOf(event.time) } : {}),
  };
}

/** insertMany(ordered: false) reports duplicate keys as a bulk error; true when every failure is one. */
function allDuplicates(error: unknown): boolean {
  const errors = (error as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> }).writeErrors;
  return Array.isArray(errors) && errors.every((e) => (e.code ?? e.err?.code) === 11000);
}

/** Builds the repository and waits for its unique indexes (the send-once guards). */
export async function createEmailRepository(connection: Connection): Promise<EmailRepository> {
  const deliveries = modelOn<DeliveryDoc>(connection, "EmailDelivery", deliverySchema);
  const facts = modelOn<FactDoc>(connection, "EmailFact", factSchema);
  await Promise.all([deliveries.init(), facts.init()]);
  return new EmailRepository(deliveries, facts);
}
