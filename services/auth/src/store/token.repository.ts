import { type Connection, type Model, Schema } from "mongoose";

export type TokenPurpose = "verify" | "reset";

interface OneTimeTokenDoc {
  /** SHA-256 of the raw token. */
  _id: string;
  userId: string;
  purpose: TokenPurpose;
  expiresAt: Date;
  usedAt: Date | null;
}

const schema = new Schema<OneTimeTokenDoc>({
  _id: String,
  userId: { type: String, required: true, index: true },
  purpose: { type: String, required: true },
  expiresAt: { type: Date, required: true },
  usedAt: { type: Date, default: null },
});

/** Email verification and password reset tokens: random, stored hashed, single use, expiring. */
export class OneTimeTokenRepository {
  readonly model: Model<OneTimeTokenDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<OneTimeTokenDoc>("OneTimeToken", schema, "one_time_tokens");
  }

  async create(hash: string, userId: string, purpose: TokenPurpose, expiresAt: Date): Promise<void> {
    await this.model.create({ _id: hash, userId, purpose, expiresAt, usedAt: null });
  }

  /**
   * Marks the token used, atomically, and returns its user id; null when the token is unknown,
   * of another purpose, already used or expired.
   */
  async consume(hash: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: hash, purpose, usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { new: true },
      )
      .lean<OneTimeTokenDoc>();
    return doc?.userId ?? null;
  }

  /** Removes tokens past their expiry (DESIGN section 5: no TTL indexes). */
  async sweep(now: Date): Promise<number> {
    return (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }
}
