import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { MrrChange } from "../domain/mrr";

/**
 * The history of what each user's subscription adds to MRR (domain/mrr.ts), one insert per
 * subscription state billing writes from a Stripe event: `_id = userId:eventTime:mrrCents`, so a
 * redelivered event adds nothing. Append-only; read whole for Admin's charts (a few documents per
 * subscriber).
 */
interface MrrChangeDoc {
  _id: string;
  userId: string;
  at: Date;
  mrrCents: number;
}

const mrrChangeSchema = new Schema<MrrChangeDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    at: { type: Date, required: true },
    mrrCents: { type: Number, required: true },
  },
  { collection: "mrr_changes", versionKey: false },
);

export function mrrChangeModel(connection: Connection): Model<MrrChangeDoc> {
  return modelOn<MrrChangeDoc>(connection, "MrrChange", mrrChangeSchema);
}

/** Most changes one series reads. */
export const MAX_MRR_CHANGES = 200_000;

export class MrrRepository {
  constructor(private readonly model: Model<MrrChangeDoc>) {}

  /** Records a state; false when this exact one was recorded before. */
  record(change: MrrChange): Promise<boolean> {
    return insertOnce(this.model, {
      _id: `${change.userId}:${change.at.getTime()}:${change.mrrCents}`,
      ...change,
    });
  }

  async all(): Promise<MrrChange[]> {
    const docs = await this.model
      .find({}, { userId: 1, at: 1, mrrCents: 1 })
      .limit(MAX_MRR_CHANGES)
      .lean<MrrChangeDoc[]>();
    return docs.map((doc) => ({ userId: doc.userId, at: new Date(doc.at), mrrCents: doc.mrrCents }));
  }
}
