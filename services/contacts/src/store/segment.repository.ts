import { idField, modelOn, type Plain, toPlain } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { SegmentGroup } from "../domain/segment";

/** A saved segment: a named condition tree over a project's contacts. */
export interface SegmentDoc {
  _id: string;
  userId: string;
  projectId: string;
  name: string;
  tree: SegmentGroup;
  updatedAt: Date;
}

export type Segment = Plain<SegmentDoc>;

const segmentSchema = new Schema<SegmentDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    tree: { type: Schema.Types.Mixed, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: "segments", versionKey: false, minimize: false },
);
segmentSchema.index({ projectId: 1, userId: 1 });

export function segmentModel(connection: Connection): Model<SegmentDoc> {
  return modelOn<SegmentDoc>(connection, "Segment", segmentSchema);
}

/** Most segments one project keeps. */
export const MAX_SEGMENTS = 200;

export class SegmentRepository {
  constructor(readonly model: Model<SegmentDoc>) {}

  async save(doc: Omit<SegmentDoc, "_id"> & { _id?: string }): Promise<Segment | null> {
    if (!doc._id) return toPlain((await this.model.create(doc)).toObject() as SegmentDoc);
    const saved = await this.model
      .findOneAndUpdate(
        { _id: doc._id, projectId: doc.projectId, userId: doc.userId },
        { $set: { name: doc.name, tree: doc.tree, updatedAt: doc.updatedAt } },
        { returnDocument: "after" },
      )
      .lean<SegmentDoc>();
    return saved ? toPlain(saved) : null;
  }

  async get(userId: string, projectId: string, segmentId: string): Promise<Segment | null> {
    const doc = await this.model.findOne({ _id: segmentId, projectId, userId }).lean<SegmentDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** The project's segments, by name. */
  async list(userId: string, projectId: string): Promise<Segment[]> {
    const docs = await this.model.find({ projectId, userId }).limit(MAX_SEGMENTS).lean<SegmentDoc[]>();
    return docs.map((doc) => toPlain(doc)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async delete(userId: string, projectId: string, segmentId: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: segmentId, projectId, userId })).deletedCount === 1;
  }
}
