import { idField, isDuplicateKey, type OutboxEntry, outboxField, type Plain, toPlain } from "@crafter/kit";
import { ROLES, type Role } from "@crafter/roles";
import { type Connection, type Model, Schema } from "mongoose";

/** The spec's roles (section 6, @crafter/roles). New users are owners. */
export { ROLES, type Role };

export interface UserDoc {
  _id: string;
  email: string;
  /** argon2id; "" for an account made with Google that has not set a password (no password signs in). */
  passwordHash: string;
  displayName: string;
  role: Role;
  emailVerified: boolean;
  /** Stable id of the user's client (the `clientId` claim). */
  clientId: string;
  createdAt: Date;
  /** Set while the email is unverified: the account is gone after it (read checks, sweeper removes). */
  expiresAt?: Date | null;
  outbox: OutboxEntry[];
}

export type User = Plain<UserDoc>;

const schema = new Schema<UserDoc>({
  _id: idField,
  email: { type: String, required: true, unique: true },
  passwordHash: { type: String, default: "" },
  displayName: { type: String, default: "Crafter" },
  role: { type: String, enum: ROLES, default: "owner" },
  emailVerified: { type: Boolean, default: false },
  clientId: { type: String, required: true },
  createdAt: { type: Date, default: Date.now },
  expiresAt: { type: Date, default: null },
  outbox: outboxField,
});

/** Credentials. Not tenant-scoped: sign-in looks users up by email. */
export class UserRepository {
  readonly model: Model<UserDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<UserDoc>("User", schema, "users");
  }

  async findByEmail(email: string): Promise<User | null> {
    const doc = await this.model.findOne({ email }).lean<UserDoc>();
    return doc ? toPlain(doc) : null;
  }

  /**
   * Removes an unverified account whose time ran out, so its address can sign up anew.
   * @returns true when it was removed.
   */
  async deleteExpired(id: string, now: Date): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id, emailVerified: false, expiresAt: { $lte: now } });
    return result.deletedCount > 0;
  }

  /**
   * Removes every unverified account past its expiry (the sweeper; FerretDB has no TTL index), and
   * those from before expiries existed once they are `legacyTtlMs` old.
   */
  async sweepExpired(now: Date, legacyTtlMs: number): Promise<number> {
    const [expired, legacy] = await Promise.all([
      this.model.deleteMany({ emailVerified: false, expiresAt: { $lte: now } }),
      this.model.deleteMany({
        emailVerified: false,
        expiresAt: null,
        createdAt: { $lte: new Date(now.getTime() - legacyTtlMs) },
      }),
    ]);
    return expired.deletedCount + legacy.deletedCount;
  }

  async findById(id: string): Promise<User | null> {
    const doc = await this.model.findById(id).lean<UserDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** Inserts a user with its first outbox event; null when the email is taken (unique index). */
  async create(doc: Omit<UserDoc, "_id" | "createdAt"> & { _id?: string }): Promise<User | null> {
    try {
      const created = await this.model.create(doc);
      return toPlain(created.toObject() as UserDoc);
    } catch (error) {
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  /**
   * Sets the user's email (verified) with `event` in one write.
   * @returns false when another account has that email (the unique index refused it).
   */
  async changeEmail(id: string, email: string, event: OutboxEntry): Promise<boolean> {
    try {
      await this.model.updateOne({ _id: id }, { $set: { email, emailVerified: true }, $push: { outbox: event } });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Applies `set` and appends `event` to the outbox in one document write. */
  async updateWithEvent(id: string, set: Partial<UserDoc>, event: OutboxEntry): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: set, $push: { outbox: event } });
  }
}
