import {
  idField,
  insertOnce,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { NotificationLevel } from "../domain/inbox";

/**
 * One in-app notification of one user. `_id` is derived from the user and the creator's key
 * (domain/inbox.ts `notificationIdOf`), so the unique `_id` index makes `notify` idempotent: a
 * second insert of the same key fails and the first stays. The document never changes after the
 * insert except `read`/`readAt`, which only ever go from unread to read (by `_id`, or all of a
 * user's at once), so concurrent writers cannot lose anything (FerretDB has no update isolation).
 */
export interface NotificationDoc {
  _id: string;
  userId: string;
  /** The creator's idempotency key, kept for support. */
  key: string;
  level: NotificationLevel;
  title: string;
  body: string;
  /** The app path it opens, "" for none. */
  link: string;
  read: boolean;
  readAt: Date | null;
  createdAt: Date;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

const notificationSchema = new Schema<NotificationDoc>(
  {
    _id: idField,
    userId: { type: String, required: true, index: true },
    key: { type: String, required: true },
    level: { type: String, enum: ["info", "warning", "success", "error"], required: true },
    title: { type: String, required: true },
    body: { type: String, default: "" },
    link: { type: String, default: "" },
    read: { type: Boolean, default: false },
    readAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "notifications", versionKey: false },
);
// The bell's unread count and filter: equality on both, which FerretDB pushes down.
notificationSchema.index({ userId: 1, read: 1 });

export function notificationModel(connection: Connection): Model<NotificationDoc> {
  return modelOn<NotificationDoc>(connection, "Notification", notificationSchema);
}

/** A notification as the use cases see it (no outbox). */
export type StoredNotification = Omit<NotificationDoc, "outbox" | "outboxMinute">;

const NO_OUTBOX = { outbox: 0, outboxMinute: 0 } as const;

/** Users' in-app notifications; every read names the user. */
export class InboxRepository {
  constructor(readonly model: Model<NotificationDoc>) {}

  /**
   * Inserts a notification with its NotificationCreated outbox entry.
   * @returns true when inserted, false when its `_id` (user + key) already existed.
   */
  insert(doc: StoredNotification, event: OutboxEntry): Promise<boolean> {
    return insertOnce(this.model, { ...doc, outbox: [event], outboxMinute: outboxMinuteOf(event.time) });
  }

  async get(userId: string, id: string): Promise<StoredNotification | null> {
    const doc = await this.model.findById(id, NO_OUTBOX).lean<StoredNotification>();
    return doc && doc.userId === userId ? doc : null;
  }

  /** One page of a user's notifications, newest first, and how many match. */
  async page(
    userId: string,
    options: { unreadOnly: boolean; skip: number; limit: number },
  ): Promise<{ items: StoredNotification[]; count: number }> {
    const filter = options.unreadOnly ? { userId, read: false } : { userId };
    const [items, count] = await Promise.all([
      this.model
        .find(filter, NO_OUTBOX)
        .sort({ createdAt: -1, _id: -1 })
        .skip(options.skip)
        .limit(options.limit)
        .lean<StoredNotification[]>(),
      this.model.countDocuments(filter),
    ]);
    return { items, count };
  }

  unreadCount(userId: string): Promise<number> {
    return this.model.countDocuments({ userId, read: false });
  }

  /** Marks one read by `_id` (a no-op when read already). */
  async markRead(userId: string, id: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: id, userId, read: false }, { $set: { read: true, readAt: at } });
  }

  /** Marks every unread notification of the user read. @returns how many were unread. */
  async markAllRead(userId: string, at: Date): Promise<number> {
    return (await this.model.updateMany({ userId, read: false }, { $set: { read: true, readAt: at } })).modifiedCount;
  }
}

/** Builds the repository and waits for its indexes. */
export async function createInboxRepository(connection: Connection): Promise<InboxRepository> {
  const model = notificationModel(connection);
  await model.init();
  return new InboxRepository(model);
}
