import { isDuplicateKey, MarkerSet, modelOn, type Plain, TenantRepository, toPlain } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import { searchTokensOf } from "../domain/search-tokens";

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
  /** Admin's user search keys (domain/search-tokens): email parts and name words, lower-case. */
  searchTokens: string[];
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
    searchTokens: { type: [String], default: undefined },
  },
  { collection: "accounts", timestamps: true, versionKey: false },
);
accountSchema.index({ searchTokens: 1 });
accountSchema.index({ createdAt: -1 });

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
        searchTokens: searchTokensOf(init.email, init.displayName || DEFAULT_DISPLAY_NAME),
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const winner = await this.findByUser(userId);
      if (!winner) throw error;
      return winner;
    }
  }

  /** Sets the display name and/or image (empty: unchanged) and refreshes the search tokens. */
  async updateInfo(userId: string, info: { displayName?: string; image?: string }): Promise<Account | null> {
    const current = await this.findByUser(userId);
    if (!current) return null;
    const displayName = info.displayName || current.displayName;
    const set = {
      displayName,
      image: info.image || current.image,
      searchTokens: searchTokensOf(current.email, displayName),
    };
    await this.model.updateOne(this.scope(userId, { _id: userId }), { $set: set });
    return { ...current, ...set };
  }

  /**
   * Records that the user verified `email`; creates the account with defaults if it does not
   * exist yet (events may be replayed out of their usual order after a reset).
   */
  async markEmailVerified(userId: string, email: string): Promise<void> {
    const current = await this.findByUser(userId);
    const set = {
      emailVerified: true,
      ...(email ? { email, searchTokens: searchTokensOf(email, current?.displayName ?? "") } : {}),
    };
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

/**
 * Every user, across tenants: only admin use cases (their role checked first) read through this.
 */
export class AccountDirectory {
  constructor(private readonly model: Model<AccountDoc>) {}

  /**
   * Accounts whose search tokens hold every query token (equality, never a pattern), newest first.
   * An empty query lists everyone.
   */
  async search(
    tokens: readonly string[],
    page: number,
    pageSize: number,
  ): Promise<{ accounts: Account[]; count: number }> {
    const filter = tokens.length > 0 ? { searchTokens: { $all: [...tokens] } } : {};
    const [docs, count] = await Promise.all([
      this.model
        .find(filter)
        .sort({ createdAt: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<AccountDoc[]>(),
      this.model.countDocuments(filter),
    ]);
    return { accounts: docs.map((doc) => toPlain(doc)), count };
  }

  async exists(userId: string): Promise<boolean> {
    return (await this.model.countDocuments({ _id: userId })) > 0;
  }

  /** Creation times of accounts created at or after `since` (sign-ups per day). */
  async createdSince(since: Date): Promise<Date[]> {
    const docs = await this.model
      .find({ createdAt: { $gte: since } }, { createdAt: 1 })
      .lean<Pick<AccountDoc, "createdAt">[]>();
    return docs.map((doc) => new Date(doc.createdAt));
  }

  count(): Promise<number> {
    return this.model.countDocuments({});
  }

  /** Fills the search tokens of accounts stored before they existed (at start; idempotent). */
  async backfillSearchTokens(): Promise<number> {
    const docs = await this.model.find({ searchTokens: { $exists: false } }).lean<AccountDoc[]>();
    for (const doc of docs) {
      await this.model.updateOne(
        { _id: doc._id },
        { $set: { searchTokens: searchTokensOf(doc.email, doc.displayName) } },
      );
    }
    return docs.length;
  }
}
