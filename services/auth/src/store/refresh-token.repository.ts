import { MarkerSet } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { RefreshTokenState } from "../domain/tokens";

export interface RefreshTokenDoc {
  /** SHA-256 of the raw token. */
  _id: string;
  familyId: string;
  userId: string;
  /** Absolute end of the family (sign-in + 30 days); every rotation keeps it. */
  expiresAt: Date;
  /** SHA-256 of the User-Agent of the client the token was issued to ("" when unknown). */
  clientHash?: string;
  createdAt: Date;
}

const schema = new Schema<RefreshTokenDoc>({
  _id: String,
  familyId: { type: String, required: true, index: true },
  userId: { type: String, required: true, index: true },
  expiresAt: { type: Date, required: true },
  clientHash: { type: String, default: "" },
  createdAt: { type: Date, default: Date.now },
});

/** A live session's refresh-token family. */
export interface LiveFamily {
  familyId: string;
  lastUsedAt: Date;
  expiresAt: Date;
}

/**
 * Refresh-token families: each rotation adds a token. Token documents never change; the first use
 * of a token and the revocation of a family are unique-id inserts (`refresh_token_uses`,
 * `revoked_families`), atomic even where concurrent updates of one document are not.
 */
export class RefreshTokenRepository {
  readonly model: Model<RefreshTokenDoc>;
  private readonly uses: MarkerSet;
  private readonly revoked: MarkerSet;
  private readonly graceUses: MarkerSet;

  constructor(connection: Connection) {
    this.model = connection.model<RefreshTokenDoc>("RefreshToken", schema, "refresh_tokens");
    this.uses = new MarkerSet(connection, "RefreshTokenUse", "refresh_token_uses");
    this.revoked = new MarkerSet(connection, "RevokedFamily", "revoked_families");
    this.graceUses = new MarkerSet(connection, "RefreshTokenGraceUse", "refresh_token_grace_uses");
  }

  /**
   * Takes the one reuse inside the grace window a token has.
   * @returns true for the first caller only (a unique-id insert).
   */
  async takeGrace(hash: string, now: Date): Promise<boolean> {
    return this.graceUses.add(hash, now);
  }

  async create(doc: Omit<RefreshTokenDoc, "createdAt">): Promise<void> {
    await this.model.create(doc);
  }

  /** The token with its first use and its family's revocation, or null when unknown. */
  async find(hash: string): Promise<(RefreshTokenDoc & RefreshTokenState) | null> {
    const token = await this.model.findById(hash).lean<RefreshTokenDoc>();
    if (!token) return null;
    const [usedAt, revokedAt] = await Promise.all([this.uses.get(hash), this.revoked.get(token.familyId)]);
    return { ...token, usedAt, revokedAt };
  }

  /**
   * Records the first use; later calls keep the first use time.
   * @returns true for the first use only (parallel callers: exactly one).
   */
  async markUsed(hash: string, now: Date): Promise<boolean> {
    return this.uses.add(hash, now);
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.revoked.add(familyId, now);
  }

  /** Revokes every live family of the user (password reset, verification by another sign-up). */
  async revokeAllOfUser(userId: string, now: Date): Promise<string[]> {
    const families: string[] = await this.model.distinct("familyId", { userId, expiresAt: { $gt: now } });
    await Promise.all(families.map((familyId) => this.revoked.add(familyId, now)));
    return families;
  }

  /**
   * The user's families that are neither expired nor revoked, with their last use (the newest
   * token's issue time), newest use first.
   */
  async liveFamiliesOf(userId: string, now: Date): Promise<LiveFamily[]> {
    const tokens = await this.model
      .find({ userId, expiresAt: { $gt: now } }, { familyId: 1, createdAt: 1, expiresAt: 1 })
      .lean<Pick<RefreshTokenDoc, "familyId" | "createdAt" | "expiresAt">[]>();
    const families = new Map<string, LiveFamily>();
    for (const token of tokens) {
      const known = families.get(token.familyId);
      if (!known || known.lastUsedAt < token.createdAt) {
        families.set(token.familyId, {
          familyId: token.familyId,
          lastUsedAt: token.createdAt,
          expiresAt: token.expiresAt,
        });
      }
    }
    const revoked = await Promise.all([...families.keys()].map((id) => this.revoked.get(id)));
    return [...families.values()]
      .filter((_, index) => !revoked[index])
      .sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime());
  }

  /** Removes expired tokens, and markers older than a family can live. */
  async sweep(now: Date, familyLifetimeMs: number): Promise<number> {
    const removed = (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    const before = new Date(now.getTime() - familyLifetimeMs);
    await Promise.all([this.uses.sweep(before), this.revoked.sweep(before), this.graceUses.sweep(before)]);
    return removed;
  }
}
