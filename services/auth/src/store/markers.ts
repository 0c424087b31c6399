import { type Connection, type Model, Schema } from "mongoose";

interface MarkerDoc {
  _id: string;
  at: Date;
}

/**
 * A set of ids kept as one document each. `add` is an insert guarded by the unique `_id`, the one
 * write that is atomic on FerretDB 1.24 as on MongoDB (concurrent updates of one document are not
 * isolated there), so exactly one of many concurrent callers adds a given id.
 */
export class MarkerSet {
  private readonly model: Model<MarkerDoc>;

  constructor(connection: Connection, name: string, collection: string) {
    this.model = connection.model<MarkerDoc>(
      name,
      new Schema<MarkerDoc>({ _id: String, at: { type: Date, required: true } }),
      collection,
    );
  }

  /** @returns true when this call added the id, false when it was there already. */
  async add(id: string, at: Date): Promise<boolean> {
    try {
      await this.model.create({ _id: id, at });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  /** When the id was added, or null. */
  async get(id: string): Promise<Date | null> {
    return (await this.model.findById(id).lean<MarkerDoc>())?.at ?? null;
  }

  async sweep(before: Date): Promise<number> {
    return (await this.model.deleteMany({ at: { $lte: before } })).deletedCount;
  }
}
