import { idField, modelOn, type OutboxEntry, outboxField, outboxMinuteField, outboxMinuteOf } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { SendTimeBy } from "../domain/campaign-release";
import type { BusinessFooter } from "../domain/email-compose";

export type CampaignStatus = "draft" | "scheduled" | "sending" | "paused" | "sent" | "failed";

export interface AbTestDoc {
  subjectB: string;
  share: number;
  winnerAfterMinutes: number;
  winner: "" | "a" | "b";
}

export interface CampaignDoc {
  _id: string;
  userId: string;
  projectId: string;
  name: string;
  status: CampaignStatus;
  segmentId: string;
  templateId: string;
  craftId: string;
  subject: string;
  preheader: string;
  html: string;
  abTest: AbTestDoc | null;
  /** The scheduled instant: the time the business chose, on its wall clock. */
  scheduledAt: Date | null;
  /**
   * "contact": each recipient gets it when their own wall clock reads the scheduled time (their
   * time zone, else the business's); "business": everyone at `scheduledAt`.
   */
  sendTimeBy: SendTimeBy;
  /** The business's time zone when it was scheduled ("" before): the wall clock `scheduledAt` was read on. */
  timeZone: string;
  /**
   * When the dispatcher starts it: `scheduledAt`, or for each contact's local time the earliest
   * instant any zone reaches the scheduled wall-clock time. Null when not scheduled.
   */
  startsAt: Date | null;
  /** When sending started (now, or the scheduled time reached). */
  sentAt: Date | null;
  finishedAt: Date | null;
  /** The plan limit stopped it; the dispatcher asks again every few minutes. */
  /** limit: the plan's email limit; provider: the business's own provider needs reconnecting. */
  waiting: { reason: "limit" | "provider"; code: string } | null;
  waitingCheckedAt: Date | null;
  /** The recipients were taken from the segment (once, at the start of sending). */
  materialized: boolean;
  recipients: number;
  /** The footer's business, read with the user's token when sending or scheduling. */
  business: BusinessFooter;
  createdAt: Date;
  updatedAt: Date;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

const campaignSchema = new Schema<CampaignDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    name: { type: String, default: "" },
    status: { type: String, required: true },
    segmentId: { type: String, default: "" },
    templateId: { type: String, default: "" },
    craftId: { type: String, default: "" },
    subject: { type: String, default: "" },
    preheader: { type: String, default: "" },
    html: { type: String, default: "" },
    abTest: { type: Schema.Types.Mixed, default: null },
    scheduledAt: { type: Date, default: null },
    sendTimeBy: { type: String, default: "business" },
    timeZone: { type: String, default: "" },
    startsAt: { type: Date, default: null },
    sentAt: { type: Date, default: null },
    finishedAt: { type: Date, default: null },
    waiting: { type: Schema.Types.Mixed, default: null },
    waitingCheckedAt: { type: Date, default: null },
    materialized: { type: Boolean, default: false },
    recipients: { type: Number, default: 0 },
    business: { type: Schema.Types.Mixed, default: () => ({ name: "", address: "" }) },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "campaigns", versionKey: false, minimize: false },
);
campaignSchema.index({ userId: 1, projectId: 1 });
campaignSchema.index({ status: 1 });

export type StoredCampaign = Omit<CampaignDoc, "outbox" | "outboxMinute">;

const NO_OUTBOX = { outbox: 0 } as const;

/** Email campaigns, scoped by user (and project for lists). */
export class CampaignRepository {
  constructor(readonly model: Model<CampaignDoc>) {}

  async insert(doc: StoredCampaign): Promise<void> {
    await this.model.create({ ...doc, outbox: [] });
  }

  /** The user's campaign, or null (another user's is null too). */
  async get(userId: string, id: string): Promise<StoredCampaign | null> {
    const doc = await this.model.findById(id, NO_OUTBOX).lean<StoredCampaign>();
    return doc && doc.userId === userId ? doc : null;
  }

  async byId(id: string): Promise<StoredCampaign | null> {
    return this.model.findById(id, NO_OUTBOX).lean<StoredCampaign>();
  }

  async list(
    userId: string,
    projectId: string,
    status: string,
    page: number,
    pageSize: number,
  ): Promise<{ items: StoredCampaign[]; count: number }> {
    const filter = status ? { userId, projectId, status: status as CampaignStatus } : { userId, projectId };
    const [items, count] = await Promise.all([
      this.model
        .find(filter, NO_OUTBOX)
        .sort({ createdAt: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<StoredCampaign[]>(),
      this.model.countDocuments(filter),
    ]);
    return { items, count };
  }

  async byIds(userId: string, ids: string[]): Promise<StoredCampaign[]> {
    return this.model.find({ _id: { $in: ids }, userId }, NO_OUTBOX).lean<StoredCampaign[]>();
  }

  /** Campaigns in a status (the dispatcher's scan; indexed). */
  async inStatus(status: CampaignStatus): Promise<StoredCampaign[]> {
    return this.model.find({ status }, { ...NO_OUTBOX, html: 0 }).lean<StoredCampaign[]>();
  }

  /**
   * Changes a campaign while it is in one of `from` (a transition); an event goes in the same write.
   * @returns the campaign after the change, or null when it was not in those states.
   */
  async transition(
    id: string,
    from: readonly CampaignStatus[],
    set: Partial<StoredCampaign>,
    at: Date,
    event?: OutboxEntry,
  ): Promise<StoredCampaign | null> {
    const update: Record<string, unknown> = { $set: { ...set, updatedAt: at } };
    if (event) {
      update.$push = { outbox: event };
      (update.$set as Record<string, unknown>).outboxMinute = outboxMinuteOf(event.time);
    }
    const result = await this.model.updateOne({ _id: id, status: { $in: [...from] } }, update);
    if (result.matchedCount === 0) return null;
    return this.byId(id);
  }

  async remove(id: string, from: readonly CampaignStatus[]): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id, status: { $in: [...from] } });
    return result.deletedCount === 1;
  }
}

export async function createCampaignRepository(connection: Connection): Promise<CampaignRepository> {
  const model = modelOn<CampaignDoc>(connection, "Campaign", campaignSchema);
  await model.init();
  return new CampaignRepository(model);
}
