import { randomUUID } from "node:crypto";
import { idField, isDuplicateKey, modelOn } from "@crafter/kit";
import type { Tier } from "@crafter/plans";
import { type Connection, type Model, Schema } from "mongoose";
import { FREE_PLAN, type Plan } from "../domain/ledger";

/**
 * A user's subscription, one document per user (unique `userId`). No document = the free tier.
 * `plan` is the tier ("core" | "pro"), kept under its old name for the ledger's out-of-credits rule;
 * the Stripe fields are written by billing's webhook handling.
 */
export interface SubscriptionDoc {
  _id: string;
  userId: string;
  /** The tier: "core" or "pro" ("free" after a subscription ends). */
  plan: Plan;
  /** CoreMonthly_v1, CoreYearly_v1, ProMonthly or ProYearly. */
  planKey?: string;
  /** Stripe's status: active, trialing, past_due, canceled, incomplete… */
  status?: string;
  currentPeriodEnd?: Date;
  cancelAtPeriodEnd?: boolean;
  stripeCustomerId?: string;
  stripeSubscriptionId?: string;
  /** When Stripe created the event this state came from: an older event never overwrites it. */
  stripeEventAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    _id: idField,
    userId: { type: String, required: true, unique: true },
    plan: { type: String, required: true },
    planKey: String,
    status: String,
    currentPeriodEnd: Date,
    cancelAtPeriodEnd: Boolean,
    stripeCustomerId: { type: String, index: true },
    stripeSubscriptionId: { type: String, index: true },
    stripeEventAt: Date,
  },
  { collection: "subscriptions", timestamps: true, versionKey: false },
);

export function subscriptionModel(connection: Connection): Model<SubscriptionDoc> {
  return modelOn<SubscriptionDoc>(connection, "Subscription", subscriptionSchema);
}

/** Stripe statuses in which the plan's features and limits apply. */
const LIVE_STATUSES = new Set(["active", "trialing", "past_due"]);

/** The tier a subscription document gives: its plan while live (no status = set by code: live). */
export function tierOf(doc: Pick<SubscriptionDoc, "plan" | "status"> | null): Tier {
  if (!doc || (doc.status && !LIVE_STATUSES.has(doc.status))) return "free";
  return doc.plan === "core" || doc.plan === "pro" ? doc.plan : "free";
}

export class SubscriptionRepository {
  constructor(readonly model: Model<SubscriptionDoc>) {}

  /** The user's subscription document, or null (free). One equality read on the unique userId. */
  async find(userId: string): Promise<SubscriptionDoc | null> {
    return this.model.findOne({ userId }).lean<SubscriptionDoc>();
  }

  /** The user's plan for the ledger: its tier, or "free". */
  async planOf(userId: string): Promise<Plan> {
    const tier = tierOf(await this.find(userId));
    return tier === "free" ? FREE_PLAN : tier;
  }

  /** Every subscription document (Admin's MRR history fills in the ones older than it). */
  async all(limit = 200_000): Promise<SubscriptionDoc[]> {
    return this.model.find({}).limit(limit).lean<SubscriptionDoc[]>();
  }

  /**
   * Puts the user on `plan` (insert on the unique userId, else update; last writer wins, which
   * is what a plan change means). `fields` carries the Stripe side when a webhook sets it.
   */
  async setPlan(
    userId: string,
    plan: Plan,
    fields: Partial<Omit<SubscriptionDoc, "_id" | "userId" | "plan">> = {},
  ): Promise<void> {
    try {
      await this.model.create({ _id: randomUUID(), userId, plan, ...fields });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.model.updateOne({ userId }, { $set: { plan, ...fields } });
    }
  }
}
