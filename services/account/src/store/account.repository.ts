import { isDuplicateKey, MarkerSet, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * The account of one user (spec section 3, "User info"); credits live in billing. Keyed by
 * `_id = userId`, so the hot read (every userInfo) is a read by `_id`.
 */
export interface AccountDoc {
  /** The user id (auth's). */
  _id: string;
  /** The same user id, kept for the tenant scope of TenantRepository. */
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
    _id: { type: String, required: true },
    userId: { type: String, required: true },
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

/** Accounts, always looked up by their user. */
export class AccountRepository extends TenantRepository<AccountDoc> {
  constructor(model: Model<AccountDoc>) {
    super(model, "userId");
  }

  /** The user's account (a read by `_id`), or null when it was not created yet. */
  findByUser(userId: string): Promise<Account | null> {
    return this.findOne(userId, { _id: userId });
  }

  /**
   * Creates the user's account with the spec's defaults unless it exists; an existing account is
   * never changed. Insert-or-read on the unique `_id`: the one write primitive that is atomic on
   * FerretDB 1.24 as on MongoDB (FerretDB's updates are read-modify-write, and its `$setOnInsert`
   * drops empty arrays). Safe to call concurrently.
   * @returns the account as stored.
   */
  async ensure(userId: string, init: NewAccount): Promise<Account> {
    const existing = await this.findByUser(userId);
    if (existing) return existing;
    try {
      return await this.create({
        _id: userId,
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
    const updated = await this.model.updateOne(this.scope(userId, { _id: userId }), { $set: set });
    if (updated.matchedCount === 1) return;
    const created = await this.ensure(userId, { email, displayName: "", role: "", emailVerified: true });
    if (!created.emailVerified) await this.model.updateOne(this.scope(userId, { _id: userId }), { $set: set });
  }
}

/**
 * Moves accounts stored before they were keyed by user (random `_id`, unique `userId` index) to
 * `_id = userId`, once per database (a marker records it; replicas racing both run it safely):
 * drops the old unique index, copies each old document under its user id (insert once: an
 * account already there wins) and deletes the old one. Runs at start, before the service serves.
 * @returns how many accounts were moved.
 */
export async function migrateAccountsToUserIds(connection: Connection, model: Model<AccountDoc>): Promise<number> {
  const migrations = new MarkerSet(connection, "AccountMigration", "account_migrations");
  const name = "accounts-by-user-id";
  if (await migrations.get(name)) return 0;
  await model.collection.dropIndex("userId_1").catch(() => undefined);
  // Once, over the whole collection: every old document has an `_id` other than its userId.
  const old = (await model.find({}).lean<AccountDoc[]>()).filter((doc) => doc._id !== doc.userId);
  for (const doc of old) {
    // The raw driver, so the copy keeps every field as stored (timestamps included).
    await model.collection.insertOne({ ...doc, _id: doc.userId } as never).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
    await model.deleteOne({ _id: doc._id });
  }
  await migrations.add(name, new Date());
  return old.length;
}
