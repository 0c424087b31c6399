import { randomUUID } from "node:crypto";
import { idField, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** The account of one user (spec section 3, "User info"); credits live in billing. */
export interface AccountDoc {
  _id: string;
  /** The auth service's user id; one account per user. */
  userId: string;
  email: string;
  displayName: string;
  image: string;
  isSubscribed: boolean;
  access: string[];
  role: string;
  emailVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type Account = Plain<AccountDoc>;

/** Spec defaults of user info. */
export const DEFAULT_DISPLAY_NAME = "Crafter";
export const DEFAULT_ROLE = "owner";

const accountSchema = new Schema<AccountDoc>(
  {
    _id: idField,
    userId: { type: String, required: true, unique: true },
    email: { type: String, default: "" },
    displayName: { type: String, default: DEFAULT_DISPLAY_NAME },
    image: { type: String, default: "" },
    isSubscribed: { type: Boolean, default: false },
    access: { type: [String], default: [] },
    role: { type: String, default: DEFAULT_ROLE },
    emailVerified: { type: Boolean, default: false },
  },
  { collection: "accounts", timestamps: true, versionKey: false },
);

export function accountModel(connection: Connection): Model<AccountDoc> {
  return modelOn<AccountDoc>(connection, "Account", accountSchema);
}

/** What is known about a user when their account is first created. */
export interface NewAccount {
  email: string;
  displayName: string;
  role: string;
  emailVerified: boolean;
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/** Accounts, always looked up by their user. */
export class AccountRepository extends TenantRepository<AccountDoc> {
  constructor(model: Model<AccountDoc>) {
    super(model, "userId");
  }

  /** The user's account, or null when it was not created yet. */
  findByUser(userId: string): Promise<Account | null> {
    return this.findOne(userId, {});
  }

  /**
   * Creates the user's account with the spec's defaults unless it exists; an existing account is
   * never changed. Insert-or-read on the unique userId index: the one write primitive that is
   * atomic on FerretDB 1.24 as on MongoDB (FerretDB's updates are read-modify-write, and its
   * `$setOnInsert` drops empty arrays). Safe to call concurrently.
   * @returns the account as stored.
   */
  async ensure(userId: string, init: NewAccount): Promise<Account> {
    const existing = await this.findByUser(userId);
    if (existing) return existing;
    try {
      return await this.create({
        _id: randomUUID(),
        userId,
        email: init.email,
        displayName: init.displayName || DEFAULT_DISPLAY_NAME,
        image: "",
        isSubscribed: false,
        access: [],
        role: init.role || DEFAULT_ROLE,
        emailVerified: init.emailVerified,
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const winner = await this.findByUser(userId);
      if (!winner) throw error;
      return winner;
    }
  }

  /**
   * Records that the user verified `email`; creates the account with defaults if it does not
   * exist yet (events may be replayed out of their usual order after a reset).
   */
  async markEmailVerified(userId: string, email: string): Promise<void> {
    const set = { emailVerified: true, ...(email ? { email } : {}) };
    const updated = await this.model.updateOne(this.scope(userId), { $set: set });
    if (updated.matchedCount === 1) return;
    const created = await this.ensure(userId, { email, displayName: "", role: "", emailVerified: true });
    if (!created.emailVerified) await this.model.updateOne(this.scope(userId), { $set: set });
  }
}
