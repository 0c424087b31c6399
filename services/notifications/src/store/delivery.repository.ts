import { randomUUID } from "node:crypto";
import { idField, insertOnce, isDuplicateKey, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { TemplateName } from "../domain/templates";

export type DeliveryStatus = "sending" | "sent" | "failed";

/**
 * One email sent because of one event. `eventId` (the event's ce_id) is unique, so an event
 * redelivered by Kafka finds its delivery and is not sent twice.
 */
export interface DeliveryDoc {
  _id: string;
  eventId: string;
  userId: string;
  to: string;
  template: TemplateName;
  status: DeliveryStatus;
  /** Send attempts so far, including the current one. */
  attempts: number;
  /** Message of the last failed attempt, "" when none failed. */
  lastError: string;
  /** When the SMTP server accepted the message; null until then. */
  sentAt: Date | null;
  /** Message-ID header of the sent message. */
  messageId: string;
  createdAt: Date;
  updatedAt: Date;
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: idField,
    eventId: { type: String, required: true, unique: true },
    userId: { type: String, default: "" },
    to: { type: String, required: true },
    template: { type: String, required: true },
    status: { type: String, enum: ["sending", "sent", "failed"], required: true },
    attempts: { type: Number, default: 0 },
    lastError: { type: String, default: "" },
    sentAt: { type: Date, default: null },
    messageId: { type: String, default: "" },
  },
  { collection: "deliveries", timestamps: true, versionKey: false },
);

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return modelOn<DeliveryDoc>(connection, "Delivery", deliverySchema);
}

/** What happened to an event's email, one document per fact, inserted once (append-only). */
export type DeliveryFactKind = "attempt" | "resent" | "sent" | "failed";

export interface DeliveryFactDoc {
  /** `<eventId>:<kind>[:<attempt number>]`: two workers recording the same fact, one wins. */
  _id: string;
  eventId: string;
  kind: DeliveryFactKind;
  /** The attempt it belongs to (sent: the attempt that sent). */
  attempt: number;
  at: Date;
  /** attempt: the worker (host:pid); sent: the Message-ID; failed: the error; resent: which attempt expired. */
  detail: string;
}

const factSchema = new Schema<DeliveryFactDoc>(
  {
    _id: idField,
    eventId: { type: String, required: true },
    kind: { type: String, required: true },
    attempt: { type: Number, required: true },
    at: { type: Date, required: true },
    detail: { type: String, default: "" },
  },
  { collection: "delivery_facts", versionKey: false },
);
factSchema.index({ eventId: 1 });

/** A delivery as the use cases see it. */
export type Delivery = Omit<DeliveryDoc, "_id"> & { id: string };

/**
 * Deliveries of event-driven emails (verification, reset, invitations, double opt-in). System data
 * keyed by event id (not tenant-scoped: no user reads it through an RPC); userId is kept for
 * support and audits. What decides a send is the append-only `delivery_facts` (FerretDB has no
 * update isolation): an attempt is recorded before the SMTP hand-off, its outcome after. The
 * `deliveries` document is the summary an operator reads (status, attempts, last error).
 */
export class DeliveryRepository {
  constructor(
    private readonly model: Model<DeliveryDoc>,
    private readonly facts: Model<DeliveryFactDoc>,
  ) {}

  /**
   * Records an event's email once (on the unique eventId; insert first, which is atomic on
   * FerretDB as on MongoDB).
   * @returns whether an earlier version already marked it sent (before facts were recorded).
   */
  async open(input: { eventId: string; userId: string; to: string; template: TemplateName }): Promise<{
    sentBefore: boolean;
  }> {
    try {
      await this.model.create({
        _id: randomUUID(),
        eventId: input.eventId,
        userId: input.userId,
        to: input.to,
        template: input.template,
        status: "sending",
        attempts: 0,
        lastError: "",
        sentAt: null,
        messageId: "",
      });
      return { sentBefore: false };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await this.model.findOne({ eventId: input.eventId }, { status: 1 }).lean<DeliveryDoc>();
    const facts = existing?.status === "sent" ? await this.factsOf(input.eventId) : [];
    return { sentBefore: existing?.status === "sent" && !facts.some((fact) => fact.kind === "sent") };
  }

  /** The facts of an event's email, oldest first. */
  async factsOf(eventId: string): Promise<DeliveryFactDoc[]> {
    return this.facts.find({ eventId }).sort({ at: 1, attempt: 1 }).lean<DeliveryFactDoc[]>();
  }

  /**
   * Adds a fact once.
   * @returns false when that fact (same kind and attempt) was already recorded.
   */
  async addFact(
    fact: { eventId: string; kind: DeliveryFactKind; attempt: number; detail?: string },
    at: Date,
  ): Promise<boolean> {
    const suffix = fact.kind === "sent" ? "" : `:${fact.attempt}`;
    return insertOnce(this.facts, {
      _id: `${fact.eventId}:${fact.kind}${suffix}`,
      eventId: fact.eventId,
      kind: fact.kind,
      attempt: fact.attempt,
      at,
      detail: (fact.detail ?? "").slice(0, 1000),
    });
  }

  /** Updates the summary after a send the SMTP server accepted. */
  async markSent(eventId: string, messageId: string, attempts: number, at: Date): Promise<void> {
    await this.model.updateOne(
      { eventId },
      { $set: { status: "sent", sentAt: at, messageId, lastError: "", attempts } },
    );
  }

  /** Updates the summary after a failed attempt. */
  async markFailed(eventId: string, reason: string, attempts: number): Promise<void> {
    await this.model.updateOne(
      { eventId, status: { $ne: "sent" } },
      { $set: { status: "failed", lastError: reason.slice(0, 1000), attempts } },
    );
  }

  async find(eventId: string): Promise<Delivery | null> {
    const doc = await this.model.findOne({ eventId }).lean<DeliveryDoc>();
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { ...rest, id: _id };
  }
}

/** Builds the repository and waits for its unique indexes (eventId; the facts' `_id`). */
export async function createDeliveryRepository(connection: Connection): Promise<DeliveryRepository> {
  const model = deliveryModel(connection);
  const facts = modelOn<DeliveryFactDoc>(connection, "DeliveryFact", factSchema);
  await Promise.all([model.init(), facts.init()]);
  return new DeliveryRepository(model, facts);
}
