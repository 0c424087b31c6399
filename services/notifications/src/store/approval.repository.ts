import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { ReviewSection, SubjectKind } from "../domain/approval";

/**
 * One approval link (`_id` = SHA-256 hex of its token, so the reviewer's every read is by `_id`).
 * Never changed after the insert: its end (revoked) is an event.
 */
export interface ApprovalLinkDoc {
  _id: string;
  /** The id the owner's pages name it by (uuid). */
  linkId: string;
  /** The project owner's user id (whose data the craft or campaign is). */
  userId: string;
  projectId: string;
  subjectKind: SubjectKind;
  subjectId: string;
  /** `<kind>:<id>` (domain/approval.ts subjectKeyOf). */
  subjectKey: string;
  /** The craft's or campaign's name when shared. */
  title: string;
  /** Its page in the app (the owner's notifications open it). */
  appPath: string;
  /** A craft's results as shared (a campaign is rendered live from its current content). */
  sections: ReviewSection[];
  reviewerName: string;
  reviewerEmail: string;
  /** The member who made the link (notified of every review event), their email and name. */
  createdBy: string;
  createdByEmail: string;
  createdByName: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * One event of a link, append-only: a comment, a decision, or its revocation (`_id` =
 * `revoked:<linkId>`, so revoking twice stores one).
 */
export interface ApprovalEventDoc {
  _id: string;
  linkId: string;
  userId: string;
  subjectKey: string;
  kind: "comment" | "approved" | "changes_requested" | "revoked";
  body: string;
  authorName: string;
  createdAt: Date;
}

const sectionSchema = new Schema<ReviewSection>({ title: String, html: String }, { _id: false });

const linkSchema = new Schema<ApprovalLinkDoc>(
  {
    _id: String,
    linkId: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    subjectKind: { type: String, required: true },
    subjectId: { type: String, required: true },
    subjectKey: { type: String, required: true },
    title: { type: String, default: "" },
    appPath: { type: String, default: "" },
    sections: { type: [sectionSchema], default: [] },
    reviewerName: { type: String, default: "" },
    reviewerEmail: { type: String, default: "" },
    createdBy: { type: String, required: true },
    createdByEmail: { type: String, default: "" },
    createdByName: { type: String, default: "" },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: "approval_links", versionKey: false },
);
linkSchema.index({ linkId: 1 }, { unique: true });
linkSchema.index({ userId: 1, subjectKey: 1 });
linkSchema.index({ userId: 1, projectId: 1 });

const eventSchema = new Schema<ApprovalEventDoc>(
  {
    _id: String,
    linkId: { type: String, required: true },
    userId: { type: String, required: true },
    subjectKey: { type: String, required: true },
    kind: { type: String, enum: ["comment", "approved", "changes_requested", "revoked"], required: true },
    body: { type: String, default: "" },
    authorName: { type: String, default: "" },
    createdAt: { type: Date, required: true },
  },
  { collection: "approval_events", versionKey: false },
);
eventSchema.index({ linkId: 1 });
eventSchema.index({ userId: 1, subjectKey: 1 });

/**
 * An approval email not yet accepted by the SMTP server: the reviewer's link (`_id` =
 * `review-request:<linkId>`) or the owner's notice of a review event (`review-notice:<eventId>`).
 * Inserted once before the first attempt, deleted once sent or given up, so the collection holds only
 * what is waiting and the retry job reads it whole.
 */
export interface ApprovalMailDoc {
  _id: string;
  kind: "review-request" | "review-notice";
  linkId: string;
  /** review-notice: the review event; "" for a review-request. */
  eventId: string;
  /** review-request: the link's token sealed for the link id (kit secret box); the token is in no other record. */
  tokenSealed: string;
  createdAt: Date;
}

const mailSchema = new Schema<ApprovalMailDoc>(
  {
    _id: String,
    kind: { type: String, enum: ["review-request", "review-notice"], required: true },
    linkId: { type: String, required: true },
    eventId: { type: String, default: "" },
    tokenSealed: { type: String, default: "" },
    createdAt: { type: Date, required: true },
  },
  { collection: "approval_mail", versionKey: false },
);

export const revocationId = (linkId: string) => `revoked:${linkId}`;

const byTime = <T extends { createdAt: Date }>(a: T, b: T) => a.createdAt.getTime() - b.createdAt.getTime();

/** Approval links and their events; every query is an equality FerretDB pushes down. */
export class ApprovalRepository {
  constructor(
    readonly links: Model<ApprovalLinkDoc>,
    readonly events: Model<ApprovalEventDoc>,
    readonly mail: Model<ApprovalMailDoc>,
  ) {}

  /** A link by its id (whoever owns it), or null. */
  linkById(linkId: string): Promise<ApprovalLinkDoc | null> {
    return this.links.findOne({ linkId }).lean<ApprovalLinkDoc>().exec();
  }

  /** One event by its id, or null. */
  eventById(eventId: string): Promise<ApprovalEventDoc | null> {
    return this.events.findById(eventId).lean<ApprovalEventDoc>().exec();
  }

  /** Every link of a project of the user (one indexed equality; the lists' approval states). */
  linksOfProject(userId: string, projectId: string): Promise<ApprovalLinkDoc[]> {
    return this.links.find({ userId, projectId }).lean<ApprovalLinkDoc[]>().exec();
  }

  /** Records an email to send. @returns false when it was recorded before. */
  addMail(doc: ApprovalMailDoc): Promise<boolean> {
    return insertOnce(this.mail, doc);
  }

  /** The emails waiting, oldest first (at most `limit`). */
  async waitingMail(limit: number): Promise<ApprovalMailDoc[]> {
    return (await this.mail.find({}).limit(limit).lean<ApprovalMailDoc[]>().exec()).sort(byTime);
  }

  /** Whether an email is still waiting (by `_id`). */
  async mailWaiting(id: string): Promise<boolean> {
    return (await this.mail.exists({ _id: id })) !== null;
  }

  /** Done with an email: sent, or given up. */
  async dropMail(id: string): Promise<void> {
    await this.mail.deleteOne({ _id: id }).exec();
  }

  async insertLink(doc: ApprovalLinkDoc): Promise<void> {
    await this.links.create(doc);
  }

  /** The link of a token's hash (by `_id`). */
  linkByHash(hash: string): Promise<ApprovalLinkDoc | null> {
    return this.links.findById(hash).lean<ApprovalLinkDoc>().exec();
  }

  /** The owner's link by its id, or null when it is not theirs. */
  async linkOf(userId: string, linkId: string): Promise<ApprovalLinkDoc | null> {
    const link = await this.links.findOne({ linkId }).lean<ApprovalLinkDoc>().exec();
    return link && link.userId === userId ? link : null;
  }

  /** The links of one craft or campaign, oldest first. */
  async linksOf(userId: string, subjectKey: string): Promise<ApprovalLinkDoc[]> {
    const links = await this.links.find({ userId, subjectKey }).lean<ApprovalLinkDoc[]>().exec();
    return links.sort(byTime);
  }

  /** When the link was revoked (by `_id`), or null. */
  async revokedAt(linkId: string): Promise<Date | null> {
    const doc = await this.events.findById(revocationId(linkId), { createdAt: 1 }).lean<ApprovalEventDoc>().exec();
    return doc?.createdAt ?? null;
  }

  /** @returns false when the link was revoked before (the first revocation stays). */
  revoke(link: Pick<ApprovalLinkDoc, "linkId" | "userId" | "subjectKey">, at: Date): Promise<boolean> {
    return insertOnce(this.events, {
      _id: revocationId(link.linkId),
      linkId: link.linkId,
      userId: link.userId,
      subjectKey: link.subjectKey,
      kind: "revoked",
      body: "",
      authorName: "",
      createdAt: at,
    });
  }

  async addEvent(doc: ApprovalEventDoc): Promise<void> {
    await this.events.create(doc);
  }

  /** The events of one link, oldest first (revocation included). */
  async eventsOfLink(linkId: string): Promise<ApprovalEventDoc[]> {
    return (await this.events.find({ linkId }).lean<ApprovalEventDoc[]>().exec()).sort(byTime);
  }

  /** The events of one craft or campaign, oldest first (revocations included). */
  async eventsOf(userId: string, subjectKey: string): Promise<ApprovalEventDoc[]> {
    return (await this.events.find({ userId, subjectKey }).lean<ApprovalEventDoc[]>().exec()).sort(byTime);
  }
}

export async function createApprovalRepository(connection: Connection): Promise<ApprovalRepository> {
  const links = modelOn<ApprovalLinkDoc>(connection, "ApprovalLink", linkSchema);
  const events = modelOn<ApprovalEventDoc>(connection, "ApprovalEvent", eventSchema);
  const mail = modelOn<ApprovalMailDoc>(connection, "ApprovalMail", mailSchema);
  await Promise.all([links.createIndexes(), events.createIndexes(), mail.createIndexes()]);
  return new ApprovalRepository(links, events, mail);
}
