import { insertOnce, modelOn } from "@crafter/kit";
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { Fact, FactKind } from "../domain/stats";

/** One usage fact, keyed by its source (the craft or ledger entry id): inserted once, never changed. */
export interface StatFactDoc {
  _id: string;
  kind: FactKind;
  amount: number;
  at: Date;
}

const statFactSchema = new Schema<StatFactDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    amount: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { collection: "stat_facts", versionKey: false },
);
statFactSchema.index({ at: 1 });

export function statFactModel(connection: Connection): Model<StatFactDoc> {
  return modelOn<StatFactDoc>(connection, "StatFact", statFactSchema);
}

export class StatsRepository {
  constructor(private readonly model: Model<StatFactDoc>) {}

  /** Records a fact once per `id` (a redelivered event changes nothing). */
  record(id: string, fact: Fact): Promise<boolean> {
    return insertOnce(this.model, { _id: id, ...fact });
  }

  async since(start: Date): Promise<Fact[]> {
    const docs = await this.model.find({ at: { $gte: start } }).lean<StatFactDoc[]>();
    return docs.map((doc) => ({ kind: doc.kind, amount: doc.amount, at: new Date(doc.at) }));
  }
}
