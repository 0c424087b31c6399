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
import type { LeadFormContent, LeadFormField } from "../domain/lead-form";
import type { Scope } from "./contact.repository";

/** A project's lead form; `_id` is the public form id. One per (user, project) behind a unique index. */
export interface LeadFormDoc extends LeadFormContent {
  _id: string;
  userId: string;
  projectId: string;
  updatedAt: Date;
}

/**
 * One visitor's submission, appended first (`received`, its contact not yet made or updated), then
 * settled once: its contact, and ContactConsentRequested when the double opt-in is sent. Once
 * confirmed it carries LeadCaptured. Its events ride in its outbox, published with the write that
 * causes them.
 */
export interface SubmissionDoc {
  _id: string;
  formId: string;
  userId: string;
  projectId: string;
  /** "" while `received`. */
  contactId: string;
  email: string;
  values: Record<string, string | boolean>;
  /** The contact fields the values gave, checked (what settling applies). */
  fields?: Record<string, unknown>;
  /** received: stored, its contact and interaction maybe not yet; pending: settled, the double opt-in sent; confirmed. */
  status: "received" | "pending" | "confirmed";
  createdAt: Date;
  confirmedAt?: Date;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

const fieldSchema = new Schema<LeadFormField>(
  {
    key: String,
    label: String,
    type: String,
    required: Boolean,
    options: { type: [String], default: () => [] },
  },
  { _id: false },
);

const formSchema = new Schema<LeadFormDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    title: String,
    fields: { type: [fieldSchema], default: () => [] },
    consentText: { type: String, default: "" },
    thankYouMessage: { type: String, default: "" },
    updatedAt: Date,
  },
  { collection: "lead_forms", versionKey: false, minimize: false },
);
formSchema.index({ userId: 1, projectId: 1 }, { unique: true });

const submissionSchema = new Schema<SubmissionDoc>(
  {
    _id: idField,
    formId: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    contactId: { type: String, default: "" },
    email: { type: String, required: true },
    values: { type: Schema.Types.Mixed, default: () => ({}) },
    fields: Schema.Types.Mixed,
    status: { type: String, required: true },
    createdAt: { type: Date, required: true },
    confirmedAt: Date,
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "lead_submissions", versionKey: false, minimize: false },
);
submissionSchema.index({ formId: 1 });
// The sweep that settles submissions a crash left `received` reads them by equality.
submissionSchema.index({ status: 1 });

export function leadFormModel(connection: Connection): Model<LeadFormDoc> {
  return modelOn<LeadFormDoc>(connection, "LeadForm", formSchema);
}
export function submissionModel(connection: Connection): Model<SubmissionDoc> {
  return modelOn<SubmissionDoc>(connection, "LeadSubmission", submissionSchema);
}

export type StoredSubmission = Omit<SubmissionDoc, "outbox">;

/** Lead forms (by `_id` for visitors, by project for the owner) and their submissions. */
export class LeadRepository {
  constructor(
    readonly forms: Model<LeadFormDoc>,
    readonly submissions: Model<SubmissionDoc>,
  ) {}

  /** The project's form, created with `defaults` on first read (a concurrent first read finds the winner's). */
  async formOf(scope: Scope, defaults: LeadFormContent, now: Date): Promise<LeadFormDoc> {
    const found = await this.forms.findOne({ userId: scope.userId, projectId: scope.projectId }).lean<LeadFormDoc>();
    if (found) return found;
    await insertOnce(this.forms, { ...defaults, userId: scope.userId, projectId: scope.projectId, updatedAt: now });
    const made = await this.forms.findOne({ userId: scope.userId, projectId: scope.projectId }).lean<LeadFormDoc>();
    if (!made) throw new Error("lead form not found after insert");
    return made;
  }

  byId(formId: string): Promise<LeadFormDoc | null> {
    return this.forms.findById(formId).lean<LeadFormDoc>();
  }

  async save(formId: string, content: LeadFormContent, now: Date): Promise<LeadFormDoc | null> {
    return this.forms
      .findOneAndUpdate({ _id: formId }, { $set: { ...content, updatedAt: now } }, { returnDocument: "after" })
      .lean<LeadFormDoc>();
  }

  /**
   * Records a submission as received, once per `_id`. @returns the stored one: this one, or the one
   * a retry with the same key stored before.
   */
  async receive(
    doc: Omit<SubmissionDoc, "outbox" | "outboxMinute" | "status" | "contactId">,
  ): Promise<StoredSubmission> {
    const received: StoredSubmission = { ...doc, contactId: "", status: "received" };
    if (await insertOnce(this.submissions, { ...received, outbox: [] })) return received;
    const stored = await this.submission(doc._id);
    if (!stored) throw new Error(`submission ${doc._id} neither inserted nor found`);
    return stored;
  }

  /**
   * Settles a received submission with its contact and events. Only a `received` one changes, so
   * a second settler (a retry, the sweep) adds nothing; were two to race past that filter, their
   * events have the same ids (consumers deduplicate). @returns whether this call settled it.
   */
  async settle(
    id: string,
    contactId: string,
    status: "pending" | "confirmed",
    events: OutboxEntry[],
  ): Promise<boolean> {
    const set: Record<string, unknown> = { contactId, status };
    if (events[0]) set.outboxMinute = outboxMinuteOf(events[0].time);
    const result = await this.submissions.updateOne(
      { _id: id, status: "received" },
      events.length > 0 ? { $set: set, $push: { outbox: { $each: events } } } : { $set: set },
    );
    return result.matchedCount === 1;
  }

  /** Forgets a received submission that cannot be settled (its contact is over the plan's limit). */
  async drop(id: string): Promise<void> {
    await this.submissions.deleteOne({ _id: id, status: "received" });
  }

  /** Submissions still `received` that were stored before `before` (a crash left them), at most `limit`. */
  async unsettled(before: Date, limit: number): Promise<StoredSubmission[]> {
    const docs = await this.submissions.find({ status: "received" }, { outbox: 0 }).lean<StoredSubmission[]>();
    return docs.filter((d) => d.createdAt < before).slice(0, limit);
  }

  submission(id: string): Promise<StoredSubmission | null> {
    return this.submissions.findById(id, { outbox: 0 }).lean<StoredSubmission>();
  }

  /**
   * Marks a pending submission confirmed with its event. @returns false when it was not pending
   * (already confirmed: the event is not appended twice).
   */
  async confirm(id: string, at: Date, event: OutboxEntry): Promise<boolean> {
    const result = await this.submissions.updateOne(
      { _id: id, status: "pending" },
      {
        $set: { status: "confirmed", confirmedAt: at, outboxMinute: outboxMinuteOf(event.time) },
        $push: { outbox: event },
      },
    );
    return result.modifiedCount === 1;
  }

  /** One page of a form's submissions, newest first (the set is one form's, narrowed by equality). */
  async page(formId: string, page: number, pageSize: number): Promise<{ items: StoredSubmission[]; count: number }> {
    // Received ones are not settled yet (a moment, or until the sweep after a crash): no contact to show.
    const all = (await this.submissions.find({ formId }, { outbox: 0 }).lean<StoredSubmission[]>()).filter(
      (s) => s.status !== "received",
    );
    all.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: all.slice((page - 1) * pageSize, page * pageSize), count: all.length };
  }
}
