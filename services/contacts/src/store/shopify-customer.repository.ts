import { modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A Shopify customer's link to its contact in a project, `_id` = customerContactId(project, GID)
 * (domain/shopify-customers.ts): which contact it is (made by the sync, or one that had the
 * customer's email already), and what the store gave it last, so the next sync replaces exactly
 * that (tags) and knows whether the contact's consent is still the one Shopify set.
 */
export interface ShopifyCustomerDoc {
  _id: string;
  userId: string;
  projectId: string;
  customerGid: string;
  contactId: string;
  /** Whether the sync created the contact (removed with the customer) or found it (kept, Shopify's data removed). */
  created: boolean;
  /** The customer's tags as last written to the contact. */
  tags: string[];
  /** The contact's `consentAt` when Shopify last set its consent; absent when it never did. */
  consentAt?: Date;
  updatedAt: Date;
}

const schema = new Schema<ShopifyCustomerDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    customerGid: { type: String, required: true },
    contactId: { type: String, required: true },
    created: { type: Boolean, required: true },
    tags: { type: [String], default: () => [] },
    consentAt: Date,
    updatedAt: { type: Date, required: true },
  },
  { collection: "shopify_customers", versionKey: false },
);
schema.index({ projectId: 1 });

export function shopifyCustomerModel(connection: Connection): Model<ShopifyCustomerDoc> {
  return modelOn<ShopifyCustomerDoc>(connection, "ShopifyCustomer", schema);
}

/** Customer → contact links, read by `_id`; a project's listed by indexed equality. */
export class ShopifyCustomerRepository {
  constructor(readonly model: Model<ShopifyCustomerDoc>) {}

  get(id: string): Promise<ShopifyCustomerDoc | null> {
    return this.model.findById(id).lean<ShopifyCustomerDoc>();
  }

  /** Writes the link whole (a sync of one customer is its only writer; the last one wins). */
  async put(doc: ShopifyCustomerDoc): Promise<void> {
    await this.model.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async remove(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id });
  }

  /** The ids of a project's links (read to the end). */
  async idsOf(projectId: string): Promise<string[]> {
    const docs = await this.model.find({ projectId }, { _id: 1 }).lean<Array<{ _id: string }>>();
    return docs.map((doc) => doc._id);
  }
}
