import { insertOnce, modelOn, type OutboxEntry, outboxField, outboxMinuteField, outboxMinuteOf } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { InvoiceRecord } from "../domain/stripe-webhook";

/**
 * One Stripe webhook event handled (append-only, `_id` = Stripe's event id): the marker that makes
 * a redelivery change nothing, and the carrier of the SubscriptionChanged event it caused (its
 * outbox), so that event is published once per Stripe event.
 */
export interface StripeEventDoc {
  _id: string;
  type: string;
  userId: string;
  /** When Stripe created the event. */
  eventAt: Date;
  outcome: string;
  outbox: OutboxEntry[];
  outboxMinute: number;
  createdAt: Date;
}

const stripeEventSchema = new Schema<StripeEventDoc>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    userId: { type: String, default: "" },
    eventAt: { type: Date, required: true },
    outcome: { type: String, default: "" },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "stripe_events", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

/** Which user a Stripe customer is (`_id` = the customer id), learnt from a finished Checkout. */
export interface CustomerDoc {
  _id: string;
  userId: string;
  createdAt: Date;
}

const customerSchema = new Schema<CustomerDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
  },
  { collection: "stripe_customers", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

/** An invoice of the payment history (`_id` = Stripe's invoice id). Amounts in cents. */
export interface InvoiceDoc extends Omit<InvoiceRecord, "id"> {
  _id: string;
  /** The Stripe event time of the last write: an older event never overwrites a newer one. */
  eventAt: Date;
}

const invoiceSchema = new Schema<InvoiceDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    customerId: { type: String, default: "" },
    amountPaid: { type: Number, default: 0 },
    amountDue: { type: Number, default: 0 },
    currency: { type: String, default: "usd" },
    status: { type: String, default: "open" },
    number: { type: String, default: "" },
    description: { type: String, default: "" },
    hostedInvoiceUrl: { type: String, default: "" },
    invoicePdf: { type: String, default: "" },
    createdAt: { type: Date, required: true },
    eventAt: { type: Date, required: true },
  },
  { collection: "invoices", versionKey: false },
);

export class PaymentsRepository {
  constructor(
    readonly events: Model<StripeEventDoc>,
    readonly customers: Model<CustomerDoc>,
    readonly invoices: Model<InvoiceDoc>,
  ) {}

  /** Whether this Stripe event was handled already (a read by `_id`). */
  async handled(eventId: string): Promise<boolean> {
    return (await this.events.exists({ _id: eventId })) !== null;
  }

  /**
   * Records a handled event with the events it publishes; false when it was recorded already (a
   * concurrent delivery of the same event: its effects are idempotent, its events go out once).
   */
  async markHandled(doc: Omit<StripeEventDoc, "createdAt" | "outboxMinute">): Promise<boolean> {
    return insertOnce(this.events, { ...doc, outboxMinute: outboxMinuteOf(doc.outbox[0]?.time ?? new Date()) });
  }

  /** Remembers that `customerId` is `userId`'s (first writer wins: a customer never changes user). */
  async rememberCustomer(customerId: string, userId: string): Promise<void> {
    if (customerId) await insertOnce(this.customers, { _id: customerId, userId });
  }

  /** The user of a Stripe customer, or "" (a read by `_id`). */
  async userOfCustomer(customerId: string): Promise<string> {
    if (!customerId) return "";
    return (await this.customers.findById(customerId).lean<CustomerDoc>())?.userId ?? "";
  }

  /** The user's newest Stripe customer id, or "". */
  async customerOf(userId: string): Promise<string> {
    const docs = await this.customers.find({ userId }).lean<CustomerDoc[]>();
    docs.sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
    return docs[0]?._id ?? "";
  }

  /**
   * Writes an invoice as of a Stripe event: inserted once, then updated only by a newer event
   * (webhooks arrive in any order; `paid` after `finalized` must win even when it comes first).
   */
  async saveInvoice(invoice: InvoiceRecord, eventAt: Date): Promise<void> {
    const { id, ...fields } = invoice;
    if (await insertOnce(this.invoices, { _id: id, ...fields, eventAt })) return;
    await this.invoices.updateOne({ _id: id, eventAt: { $lt: eventAt } }, { $set: { ...fields, eventAt } });
  }

  /** A page of the user's invoices, newest first, and how many there are. */
  async listInvoices(
    userId: string,
    page: number,
    pageSize: number,
  ): Promise<{ items: InvoiceRecord[]; total: number }> {
    // A user has few invoices (one a month): sorting them here is cheaper than a sort FerretDB would do.
    const docs = await this.invoices.find({ userId }).lean<InvoiceDoc[]>();
    docs.sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
    const items = docs.slice((page - 1) * pageSize, page * pageSize).map(({ _id, eventAt: _e, ...rest }) => ({
      ...rest,
      id: _id,
      createdAt: new Date(rest.createdAt),
    }));
    return { items, total: docs.length };
  }
}

export function paymentsModels(connection: Connection) {
  return {
    events: modelOn<StripeEventDoc>(connection, "StripeEvent", stripeEventSchema),
    customers: modelOn<CustomerDoc>(connection, "StripeCustomer", customerSchema),
    invoices: modelOn<InvoiceDoc>(connection, "Invoice", invoiceSchema),
  };
}
