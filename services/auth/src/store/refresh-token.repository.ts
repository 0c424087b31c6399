import { type Connection, type Model, Schema } from "mongoose";

export interface RefreshTokenDoc {
  /** SHA-256 of the raw token. */
  _id: string;
  familyId: string;
  userId: string;
  /** Absolute end of the family (sign-in + 30 days); every rotation keeps it. */
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const schema = new Schema<RefreshTokenDoc>({
  _id: String,
  familyId: { type: String, required: true, index: true },
  userId: { type: String, required: true, index: true },
  expiresAt: { type: Date, required: true },
  usedAt: { type: Date, default: null },
  revokedAt: { type: Date, default: null },
  createdAt: { type: Date, default: Date.now },
});

/** Refresh-token families: each rotation adds a token; reuse revokes the family. */
export class RefreshTokenRepository {
  readonly model: Model<RefreshTokenDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<RefreshTokenDoc>("RefreshToken", schema, "refresh_tokens");
  }

  async create(doc: Omit<RefreshTokenDoc, "usedAt" | "revokedAt" | "createdAt">): Promise<void> {
    await this.model.create({ ...doc, usedAt: null, revokedAt: null });
  }

  async find(hash: string): Promise<RefreshTokenDoc | null> {
    return this.model.findById(hash).lean<RefreshTokenDoc>();
  }

  /** Sets usedAt the first time only; later calls keep the first use time. */
  async markUsed(hash: string, now: Date): Promise<void> {
    await this.model.updateOne({ _id: hash, usedAt: null }, { $set: { usedAt: now } });
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.model.updateMany({ familyId, revokedAt: null }, { $set: { revokedAt: now } });
  }

  async revokeAllOfUser(userId: string, now: Date): Promise<void> {
    await this.model.updateMany({ userId, revokedAt: null }, { $set: { revokedAt: now } });
  }

  async sweep(now: Date): Promise<number> {
    return (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }
}
