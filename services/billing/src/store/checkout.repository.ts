import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { CheckoutRecord } from "../domain/test-checkout";

/**
 * A checkout paid on the local test checkout (`_id` = the checkout id; append-only, so its unique
 * `_id` makes a checkout single use): the events its payment caused, serialized once, so a second
 * "Pay" delivers exactly the same events again.
 */
export interface CheckoutPaymentDoc {
  _id: string;
  userId: string;
  /** The webhook events' bodies, in delivery order. */
  events: string[];
  createdAt: Date;
}

const checkoutSchema = new Schema<CheckoutRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    kind: { type: String, required: true },
    planKey: { type: String, default: "" },
    packId: { type: String, default: "" },
    name: { type: String, required: true },
    description: { type: String, default: "" },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    interval: { type: String, default: "" },
    credits: { type: Number, default: 0 },
    priceId: { type: String, default: "" },
    stripeSessionId: { type: String, default: "" },
    successUrl: { type: String, required: true },
    cancelUrl: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: "checkouts", versionKey: false },
);

const paymentSchema = new Schema<CheckoutPaymentDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    events: { type: [String], default: [] },
  },
  { collection: "checkout_payments", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

/** Crafter's own record of each checkout it starts, and the test checkout's payments. */
export class CheckoutRepository {
  constructor(
    readonly checkouts: Model<CheckoutRecord>,
    readonly payments: Model<CheckoutPaymentDoc>,
  ) {}

  async record(checkout: CheckoutRecord): Promise<void> {
    await this.checkouts.create(checkout);
  }

  /** A checkout by id (a read by `_id`), or null. */
  async find(checkoutId: string): Promise<CheckoutRecord | null> {
    return this.checkouts.findById(checkoutId).lean<CheckoutRecord>();
  }

  /** The payment of a checkout, or null while it is unpaid (a read by `_id`). */
  async paymentOf(checkoutId: string): Promise<CheckoutPaymentDoc | null> {
    return this.payments.findById(checkoutId).lean<CheckoutPaymentDoc>();
  }

  /** Records a payment; false when the checkout was paid already (the first payment stands). */
  async pay(payment: Omit<CheckoutPaymentDoc, "createdAt">): Promise<boolean> {
    return insertOnce(this.payments, payment);
  }
}

export function checkoutModels(connection: Connection) {
  return {
    checkouts: modelOn<CheckoutRecord>(connection, "Checkout", checkoutSchema),
    payments: modelOn<CheckoutPaymentDoc>(connection, "CheckoutPayment", paymentSchema),
  };
}
