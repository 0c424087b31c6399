import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { CustomDomainStatus, RecordCheck } from "../domain/custom-domain";

/**
 * A project's custom domain. `_id` is the domain itself: the unique `_id` index keeps a domain to
 * one project (of two concurrent adds exactly one inserts), and the gateway's lookup of every
 * request's `Host` is a read by `_id`. A second unique index keeps one domain per project. A check
 * rewrites the state fields of the document it read (by `_id` and `token`): the last check wins,
 * and a check that overlaps a removal finds nothing to write (a re-added domain has a new token).
 */
export interface CustomDomainDoc {
  _id: string;
  projectId: string;
  /** The project's owner (the tenant its pages and forms live under). */
  userId: string;
  /** The TXT record's value: 32 random bytes, base64url, made when the domain is added. */
  token: string;
  /** The CNAME target the records were shown with. */
  target: string;
  status: CustomDomainStatus;
  /** What the last check found, per record. */
  records: RecordCheck[];
  problem: string;
  checkedAt: Date | null;
  verifiedAt: Date | null;
  createdAt: Date;
}

export type CustomDomainRecord = Omit<CustomDomainDoc, "_id"> & { domain: string };

const recordSchema = new Schema<RecordCheck>(
  {
    type: { type: String, required: true },
    name: { type: String, required: true },
    value: { type: String, required: true },
    found: { type: [String], default: [] },
    ok: { type: Boolean, default: false },
  },
  { _id: false },
);

const customDomainSchema = new Schema<CustomDomainDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    userId: { type: String, required: true },
    token: { type: String, required: true },
    target: { type: String, required: true },
    status: { type: String, required: true },
    records: { type: [recordSchema], default: [] },
    problem: { type: String, default: "" },
    checkedAt: { type: Date, default: null },
    verifiedAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
customDomainSchema.index({ projectId: 1 }, { unique: true });
// The periodic check's scan: the domains not verified, oldest check first.
customDomainSchema.index({ status: 1, checkedAt: 1 });

const toRecord = ({ _id, ...rest }: CustomDomainDoc): CustomDomainRecord => ({ domain: _id, ...rest });

/** Custom domains, by domain (the gateway's hot read) and by project. */
export class CustomDomainRepository {
  constructor(private readonly model: Model<CustomDomainDoc>) {}

  /** Inserts a new domain. @returns false when the domain, or a domain of the project, exists. */
  add(doc: Omit<CustomDomainRecord, "checkedAt" | "verifiedAt" | "problem">): Promise<boolean> {
    const { domain, ...rest } = doc;
    return insertOnce(this.model, { _id: domain, ...rest, problem: "", checkedAt: null, verifiedAt: null });
  }

  /** The domain `domain` (a read by `_id`), or null. */
  async byDomain(domain: string): Promise<CustomDomainRecord | null> {
    const doc = await this.model.findById(domain).lean<CustomDomainDoc>();
    return doc ? toRecord(doc) : null;
  }

  async ofProject(projectId: string): Promise<CustomDomainRecord | null> {
    const doc = await this.model.findOne({ projectId }).lean<CustomDomainDoc>();
    return doc ? toRecord(doc) : null;
  }

  /**
   * Writes a check's outcome onto the domain as it was read (same `_id` and token).
   * @returns the domain after the write, or null when it was removed meanwhile.
   */
  async recordCheck(
    domain: string,
    token: string,
    outcome: Pick<CustomDomainDoc, "status" | "records" | "problem" | "checkedAt" | "verifiedAt">,
  ): Promise<CustomDomainRecord | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: domain, token }, { $set: outcome }, { returnDocument: "after" })
      .lean<CustomDomainDoc>();
    return doc ? toRecord(doc) : null;
  }

  /** Removes the project's domain. @returns whether one was removed. */
  async remove(projectId: string): Promise<boolean> {
    const { deletedCount } = await this.model.deleteMany({ projectId });
    return deletedCount > 0;
  }

  /**
   * Domains to check again: not verified, or verified and last checked before `verifiedBefore`,
   * at most `limit`, the least recently checked first (read whole: the cursor is exhausted).
   */
  async due(verifiedBefore: Date, limit: number): Promise<CustomDomainRecord[]> {
    const unverified = await this.model
      .find({ status: { $in: ["pending", "failing"] } })
      .sort({ checkedAt: 1 })
      .limit(limit)
      .lean<CustomDomainDoc[]>();
    const stale =
      unverified.length < limit
        ? await this.model
            .find({ status: "verified", checkedAt: { $lt: verifiedBefore } })
            .sort({ checkedAt: 1 })
            .limit(limit - unverified.length)
            .lean<CustomDomainDoc[]>()
        : [];
    return [...unverified, ...stale].map(toRecord);
  }
}

export function customDomainModel(connection: Connection): Model<CustomDomainDoc> {
  return modelOn<CustomDomainDoc>(connection, "CustomDomain", customDomainSchema, "custom_domains");
}
