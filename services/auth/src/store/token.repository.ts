import { MarkerSet } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export type TokenPurpose = "verify" | "reset" | "email-change";

export interface OneTimeTokenDoc {
  /** SHA-256 of the raw token. */
  _id: string;
  userId: string;
  purpose: TokenPurpose;
  expiresAt: Date;
  createdAt: Date;
  /**
   * Verification tokens: the password (argon2id hash) and name chosen in the sign-up that sent this
   * link. Verifying with it sets them, so a sign-up made earlier by someone else never keeps its password.
   */
  passwordHash?: string;
  displayName?: string;
  /** Email change tokens: the address the user asked to change to. */
  newEmail?: string;
}

const schema = new Schema<OneTimeTokenDoc>({
  _id: String,
  userId: { type: String, required: true, index: true },
  purpose: { type: String, required: true },
  expiresAt: { type: Date, required: true },
  createdAt: { type: Date, default: Date.now },
  passwordHash: { type: String },
  displayName: { type: String },
  newEmail: { type: String },
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

  async create(
    hash: string,
    userId: string,
    purpose: TokenPurpose,
    expiresAt: Date,
    signUp?: { passwordHash: string; displayName: string } | { newEmail: string },
  ): Promise<void> {
    await this.model.create({ _id: hash, userId, purpose, expiresAt, ...signUp });
  }

  /**
   * Uses the token once and returns it; null when the token is unknown, of another purpose,
   * expired or already used.
   */
  async consume(hash: string, purpose: TokenPurpose, now: Date): Promise<OneTimeTokenDoc | null> {
    const token = await this.model.findOne({ _id: hash, purpose, expiresAt: { $gt: now } }).lean<OneTimeTokenDoc>();
    if (!token) return null;
    return (await this.uses.add(hash, now)) ? token : null;
  }

  /**
   * A token already used but still stored and unexpired: its use was recorded and the process
   * stopped before the effect was complete (the effect drops the token when it is). Null otherwise.
   */
  async usedUnfinished(hash: string, purpose: TokenPurpose, now: Date): Promise<OneTimeTokenDoc | null> {
    const token = await this.model.findOne({ _id: hash, purpose, expiresAt: { $gt: now } }).lean<OneTimeTokenDoc>();
    return token && (await this.uses.get(hash)) ? token : null;
  }

  /** The user's newest live token of `purpose` (the sign-up a resend repeats), or null. */
  async latest(userId: string, purpose: TokenPurpose, now: Date): Promise<OneTimeTokenDoc | null> {
    // Few tokens per user: the date filter and sort run on the user's handful of documents.
    const tokens = await this.model.find({ userId, purpose }).lean<OneTimeTokenDoc[]>();
    const live = tokens.filter((token) => token.expiresAt.getTime() > now.getTime());
    live.sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));
    return live[0] ?? null;
  }

  /** Drops every token of `purpose` of the user (the other sign-ups' links once one verified). */
  async dropAll(userId: string, purpose: TokenPurpose): Promise<number> {
    return (await this.model.deleteMany({ userId, purpose })).deletedCount;
  }

  /** Removes tokens past their expiry, and use markers old enough to outlive any token. */
  async sweep(now: Date, maxTokenLifetimeMs: number): Promise<number> {
    const tokens = (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    await this.uses.sweep(new Date(now.getTime() - maxTokenLifetimeMs));
    return tokens;
  }
}
