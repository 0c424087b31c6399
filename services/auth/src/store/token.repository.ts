import { MarkerSet } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export type TokenPurpose = "verify" | "reset";

interface OneTimeTokenDoc {
  /** SHA-256 of the raw token. */
  _id: string;
  userId: string;
  purpose: TokenPurpose;
  expiresAt: Date;
}

const schema = new Schema<OneTimeTokenDoc>({
  _id: String,
  userId: { type: String, required: true, index: true },
  purpose: { type: String, required: true },
  expiresAt: { type: Date, required: true },
});

/**
 * Email verification and password reset tokens: random, stored hashed, expiring, and single use —
 * a use is a unique-id insert into `one_time_token_uses`, so two concurrent uses cannot both win.
 */
export class OneTimeTokenRepository {
  readonly model: Model<OneTimeTokenDoc>;
  private readonly uses: MarkerSet;

  constructor(connection: Connection) {
    this.model = connection.model<OneTimeTokenDoc>("OneTimeToken", schema, "one_time_tokens");
    this.uses = new MarkerSet(connection, "OneTimeTokenUse", "one_time_token_uses");
  }

  async create(hash: string, userId: string, purpose: TokenPurpose, expiresAt: Date): Promise<void> {
    await this.model.create({ _id: hash, userId, purpose, expiresAt });
  }

  /**
   * Uses the token once and returns its user id; null when the token is unknown, of another
   * purpose, expired or already used.
   */
  async consume(hash: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
    const token = await this.model.findOne({ _id: hash, purpose, expiresAt: { $gt: now } }).lean<OneTimeTokenDoc>();
    if (!token) return null;
    return (await this.uses.add(hash, now)) ? token.userId : null;
  }

  /** Removes tokens past their expiry, and use markers old enough to outlive any token. */
  async sweep(now: Date, maxTokenLifetimeMs: number): Promise<number> {
    const tokens = (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    await this.uses.sweep(new Date(now.getTime() - maxTokenLifetimeMs));
    return tokens;
  }
}
