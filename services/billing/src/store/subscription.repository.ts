import { randomUUID } from "node:crypto";
import { idField, isDuplicateKey, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import { FREE_PLAN, type Plan } from "../domain/ledger";

/** A user's plan. No row = the free plan. Plans are not sold yet: only code sets one. */
export interface SubscriptionDoc {
  _id: string;
  userId: string;
  plan: Plan;
  createdAt: Date;
  updatedAt: Date;
}

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    _id: idField,
    userId: { type: String, required: true, unique: true },
    plan: { type: String, required: true },
  },
  { collection: "subscriptions", timestamps: true, versionKey: false },
);

export function subscriptionModel(connection: Connection): Model<SubscriptionDoc> {
  return modelOn<SubscriptionDoc>(connection, "Subscription", subscriptionSchema);
}

export class SubscriptionRepository {
  constructor(readonly model: Model<SubscriptionDoc>) {}

  /** The user's plan; "free" without a subscription. */
  async planOf(userId: string): Promise<Plan> {
    const doc = await this.model.findOne({ userId }).lean<SubscriptionDoc>();
    return doc?.plan ?? FREE_PLAN;
  }

  /**
   * Puts the user on `plan` (insert on the unique userId, else update; last writer wins, which
   * is what a plan change means).
   */
  async setPlan(userId: string, plan: Plan): Promise<void> {
    try {
      await this.model.create({ _id: randomUUID(), userId, plan });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.model.updateOne({ userId }, { $set: { plan } });
    }
  }
}
