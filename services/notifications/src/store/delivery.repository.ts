import { randomUUID } from "node:crypto";
import { idField, isDuplicateKey, modelOn } from "@crafter/kit";
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

/** A delivery as the use cases see it. */
export type Delivery = Omit<DeliveryDoc, "_id"> & { id: string };

/**
 * Deliveries of event-driven emails. System data keyed by event id (not tenant-scoped: no user
 * reads it through an RPC); userId is kept for support and audits.
 */
export class DeliveryRepository {
  constructor(private readonly model: Model<DeliveryDoc>) {}

  /**
   * Claims the delivery of an event for one send attempt: inserts it (attempt 1), or, when it
   * exists and was not sent, counts one more attempt. Insert first, on the unique eventId: the
   * write that is atomic on FerretDB 1.24 as on MongoDB (FerretDB's `$setOnInsert` also drops
   * null fields, so an upsert would store incomplete documents).
   * @returns "claimed" (go ahead and send) or "already-sent" (the event was delivered before).
   */
  async claim(input: {
    eventId: string;
    userId: string;
    to: string;
    template: TemplateName;
  }): Promise<"claimed" | "already-sent"> {
    try {
      await this.model.create({
        _id: randomUUID(),
        eventId: input.eventId,
        userId: input.userId,
        to: input.to,
        template: input.template,
        status: "sending",
        attempts: 1,
        lastError: "",
        sentAt: null,
        messageId: "",
      });
      return "claimed";
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const retried = await this.model.updateOne(
      { eventId: input.eventId, status: { $ne: "sent" } },
      { $inc: { attempts: 1 }, $set: { status: "sending" } },
    );
    return retried.matchedCount === 1 ? "claimed" : "already-sent";
  }

  /** Records that the SMTP server accepted the message. */
  async markSent(eventId: string, messageId: string, at: Date): Promise<void> {
    await this.model.updateOne({ eventId }, { $set: { status: "sent", sentAt: at, messageId, lastError: "" } });
  }

  /** Records a failed attempt and its reason. */
  async markFailed(eventId: string, reason: string): Promise<void> {
    await this.model.updateOne({ eventId }, { $set: { status: "failed", lastError: reason.slice(0, 1000) } });
  }

  async find(eventId: string): Promise<Delivery | null> {
    const doc = await this.model.findOne({ eventId }).lean<DeliveryDoc>();
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { ...rest, id: _id };
  }
}

/** Builds the repository and waits for its unique index on eventId. */
export async function createDeliveryRepository(connection: Connection): Promise<DeliveryRepository> {
  const model = deliveryModel(connection);
  await model.init();
  return new DeliveryRepository(model);
}
