import { idField, insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { SegmentGroup } from "../domain/segment";
import type { Scope } from "./contact.repository";

/** A saved segment: a condition tree (react-querybuilder JSON) within a project. */
export interface SegmentDoc {
  _id: string;
  userId: string;
  projectId: string;
  name: string;
  tree: SegmentGroup;
  createdAt: Date;
  updatedAt: Date;
}

/** A contact added to a segment by hand; `_id` = `<segmentId>:<contactId>` (added once). */
export interface SegmentMemberDoc {
  _id: string;
  userId: string;
  segmentId: string;
  contactId: string;
  at: Date;
}

const segmentSchema = new Schema<SegmentDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    name: { type: String, required: true },
    tree: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: "segments", versionKey: false, minimize: false },
);
segmentSchema.index({ userId: 1, projectId: 1 });

const memberSchema = new Schema<SegmentMemberDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    segmentId: { type: String, required: true },
    contactId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "segment_members", versionKey: false },
);
memberSchema.index({ segmentId: 1 });

export function segmentModel(connection: Connection): Model<SegmentDoc> {
  return modelOn<SegmentDoc>(connection, "Segment", segmentSchema);
}
export function segmentMemberModel(connection: Connection): Model<SegmentMemberDoc> {
  return modelOn<SegmentMemberDoc>(connection, "SegmentMember", memberSchema);
}

/** Saved segments and their hand-added members, within one user's project. */
export class SegmentRepository {
  constructor(
    readonly model: Model<SegmentDoc>,
    readonly members: Model<SegmentMemberDoc>,
  ) {}

  get(scope: Scope, id: string): Promise<SegmentDoc | null> {
    return this.model.findOne({ _id: id, userId: scope.userId, projectId: scope.projectId }).lean<SegmentDoc>();
  }

  /** Newest first (a project has a handful). */
  async list(scope: Scope): Promise<SegmentDoc[]> {
    const docs = await this.model.find({ userId: scope.userId, projectId: scope.projectId }).lean<SegmentDoc[]>();
    return docs.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }

  async create(doc: SegmentDoc): Promise<SegmentDoc> {
    await this.model.create(doc);
    return doc;
  }

  /** Replaces name and tree (the owner edits their own segment; last save wins). */
  update(scope: Scope, id: string, set: Pick<SegmentDoc, "name" | "tree" | "updatedAt">): Promise<SegmentDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: id, userId: scope.userId, projectId: scope.projectId },
        { $set: set },
        { returnDocument: "after" },
      )
      .lean<SegmentDoc>();
  }

  async remove(scope: Scope, id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id, userId: scope.userId, projectId: scope.projectId });
    if (result.deletedCount === 1) await this.members.deleteMany({ segmentId: id, userId: scope.userId });
    return result.deletedCount === 1;
  }

  /** @returns true when the contact was not a member yet. */
  addMember(userId: string, segmentId: string, contactId: string, at: Date): Promise<boolean> {
    return insertOnce(this.members, { _id: `${segmentId}:${contactId}`, userId, segmentId, contactId, at });
  }

  async memberIds(userId: string, segmentId: string): Promise<Set<string>> {
    const docs = await this.members.find({ segmentId, userId }, { contactId: 1 }).lean<SegmentMemberDoc[]>();
    return new Set(docs.map((d) => d.contactId));
  }
}
