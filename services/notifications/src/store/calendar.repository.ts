import { createHash } from "node:crypto";
import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { CalendarStatus, CalendarType } from "../domain/calendar-entries";

/**
 * One entry of the content calendar: a craft its owner scheduled, or an email campaign the email
 * area scheduled (from CampaignScheduled). One entry per craft and per campaign: `_id` is derived
 * from the user and the craft or campaign id (`calendarEntryIdOf`), so scheduling again moves the
 * entry, and a redelivered event finds it.
 *
 * `day` (UTC "YYYY-MM-DD" of `dateTime`) and `pending` (a social, blog or other entry not yet due)
 * are what the due scan looks entries up by: equality on top-level fields, which FerretDB pushes
 * down to PostgreSQL (a range on `dateTime` it would answer by decoding the collection).
 */
export interface CalendarEntryDoc {
  _id: string;
  userId: string;
  projectId: string;
  source: "craft" | "campaign";
  craftId: string;
  campaignId: string;
  title: string;
  type: CalendarType;
  status: CalendarStatus;
  dateTime: Date;
  day: string;
  pending: boolean;
  workflowName: string;
  link: string;
  createdAt: Date;
  updatedAt: Date;
}

const entrySchema = new Schema<CalendarEntryDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    source: { type: String, enum: ["craft", "campaign"], required: true },
    craftId: { type: String, default: "" },
    campaignId: { type: String, default: "" },
    title: { type: String, default: "" },
    type: { type: String, required: true },
    status: { type: String, required: true },
    dateTime: { type: Date, required: true },
    day: { type: String, required: true },
    pending: { type: Boolean, default: false },
    workflowName: { type: String, default: "" },
    link: { type: String, default: "" },
  },
  { collection: "calendar_entries", timestamps: true, versionKey: false },
);
entrySchema.index({ userId: 1, projectId: 1, dateTime: 1 });
entrySchema.index({ day: 1, pending: 1 });
entrySchema.index({ userId: 1, day: 1 });

export function calendarEntryModel(connection: Connection): Model<CalendarEntryDoc> {
  return modelOn<CalendarEntryDoc>(connection, "CalendarEntry", entrySchema);
}

/** Where the due scan has got to: every day before `day` has no pending entry left. */
interface ScanDoc {
  _id: string;
  day: string;
}

function scanModel(connection: Connection): Model<ScanDoc> {
  return modelOn<ScanDoc>(
    connection,
    "CalendarScan",
    new Schema<ScanDoc>({ _id: String, day: { type: String, required: true } }, { versionKey: false }),
    "calendar_scans",
  );
}

/** The id of a user's entry for a craft or a campaign (hex, 32 characters). */
export function calendarEntryIdOf(source: "craft" | "campaign", userId: string, id: string): string {
  return createHash("sha256")
    .update(source)
    .update("\0")
    .update(userId)
    .update("\0")
    .update(id)
    .digest("hex")
    .slice(0, 32);
}

export type EntryFields = Omit<CalendarEntryDoc, "_id" | "createdAt" | "updatedAt">;

const DUE_SCAN_ID = "due-scan";

/** Calendar entries; every read a user makes names the user and the project. */
export class CalendarRepository {
  constructor(
    readonly model: Model<CalendarEntryDoc>,
    private readonly scans: Model<ScanDoc>,
  ) {}

  /** Inserts the entry, or replaces the fields of the one with this `_id`. */
  async put(id: string, fields: EntryFields): Promise<CalendarEntryDoc> {
    if (!(await insertOnce(this.model, { _id: id, ...fields })))
      await this.model.updateOne({ _id: id }, { $set: fields });
    return (await this.model.findById(id).lean<CalendarEntryDoc>())!;
  }

  /** Changes some fields of an entry by `_id`. */
  async set(id: string, fields: Partial<EntryFields>): Promise<CalendarEntryDoc | null> {
    await this.model.updateOne({ _id: id }, { $set: fields });
    return this.model.findById(id).lean<CalendarEntryDoc>();
  }

  async byId(id: string): Promise<CalendarEntryDoc | null> {
    return this.model.findById(id).lean<CalendarEntryDoc>();
  }

  /** The user's entry in the project, or null. */
  async get(userId: string, projectId: string, id: string): Promise<CalendarEntryDoc | null> {
    const doc = await this.byId(id);
    return doc && doc.userId === userId && doc.projectId === projectId ? doc : null;
  }

  async remove(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id });
  }

  /** The project's entries with `from <= dateTime < to`, by time. */
  inRange(userId: string, projectId: string, from: Date, to: Date): Promise<CalendarEntryDoc[]> {
    return this.model
      .find({ userId, projectId, dateTime: { $gte: from, $lt: to } })
      .sort({ dateTime: 1, _id: 1 })
      .limit(2000)
      .lean<CalendarEntryDoc[]>();
  }

  /** One page of the project's entries, by time, and how many match. */
  async page(
    userId: string,
    projectId: string,
    options: { type?: string; status?: string; descending: boolean; skip: number; limit: number },
  ): Promise<{ items: CalendarEntryDoc[]; count: number }> {
    const filter: Record<string, string> = { userId, projectId };
    if (options.type) filter.type = options.type;
    if (options.status) filter.status = options.status;
    const order = options.descending ? -1 : 1;
    const [items, count] = await Promise.all([
      this.model
        .find(filter)
        .sort({ dateTime: order, _id: order })
        .skip(options.skip)
        .limit(options.limit)
        .lean<CalendarEntryDoc[]>(),
      this.model.countDocuments(filter),
    ]);
    return { items, count };
  }

  /** The entries of a UTC day still waiting to turn due. */
  pendingOn(day: string): Promise<CalendarEntryDoc[]> {
    return this.model.find({ day, pending: true }).limit(5000).lean<CalendarEntryDoc[]>();
  }

  /** Marks an entry due, unless it was moved meanwhile (another time, or no longer pending). */
  async markDue(id: string, dateTime: Date): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, pending: true, dateTime },
      { $set: { pending: false, status: "due" } },
    );
    return result.modifiedCount === 1;
  }

  /** How many of the user's posts (social, blog, other) are on a UTC day, in every project. */
  postsOn(userId: string, day: string): Promise<number> {
    return this.model.countDocuments({ userId, day, type: { $in: ["social", "blog", "other"] } });
  }

  /** The user's posts (social, blog, other) on a UTC day, in every project: their project and time. */
  postTimesOn(userId: string, day: string): Promise<Array<{ projectId: string; dateTime: Date }>> {
    return this.model
      .find({ userId, day, type: { $in: ["social", "blog", "other"] } }, { projectId: 1, dateTime: 1 })
      .limit(5000)
      .lean<Array<{ projectId: string; dateTime: Date }>>();
  }

  /** The first day the due scan still has to look at, or null before its first pass. */
  async scanFrom(): Promise<string | null> {
    return (await this.scans.findById(DUE_SCAN_ID).lean<ScanDoc>())?.day ?? null;
  }

  async setScanFrom(day: string): Promise<void> {
    if (!(await insertOnce(this.scans, { _id: DUE_SCAN_ID, day })))
      await this.scans.updateOne({ _id: DUE_SCAN_ID }, { $set: { day } });
  }
}

/** Builds the repository and waits for its indexes. */
export async function createCalendarRepository(connection: Connection): Promise<CalendarRepository> {
  const model = calendarEntryModel(connection);
  const scans = scanModel(connection);
  await Promise.all([model.init(), scans.init()]);
  return new CalendarRepository(model, scans);
}
