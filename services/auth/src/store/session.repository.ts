import { isDuplicateKey } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * What a sign-in knew about its client, per refresh-token family (= session, the access token's
 * `sid`): the linked devices of settings. Written once at sign-in and never changed; the last use
 * is the newest refresh token of the family.
 */
export interface SessionDoc {
  /** The family id. */
  _id: string;
  userId: string;
  /** The client's User-Agent at sign-in (≤ 512 characters). */
  userAgent: string;
  /** The client IP the gateway saw ("" when not trusted). */
  ip: string;
  createdAt: Date;
}

const schema = new Schema<SessionDoc>(
  {
    _id: String,
    userId: { type: String, required: true, index: true },
    userAgent: { type: String, default: "" },
    ip: { type: String, default: "" },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);

export class SessionRepository {
  readonly model: Model<SessionDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SessionDoc>("Session", schema, "sessions");
  }

  /** Records a new session; a second record of the same family is ignored. */
  async record(doc: SessionDoc): Promise<void> {
    try {
      await this.model.create({ ...doc, userAgent: doc.userAgent.slice(0, 512) });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  async findMany(ids: readonly string[]): Promise<SessionDoc[]> {
    if (ids.length === 0) return [];
    // Reads by `_id` equality (pushed down by FerretDB; `$in` is not).
    const found = await Promise.all(ids.map((id) => this.model.findById(id).lean<SessionDoc>()));
    return found.filter((doc): doc is SessionDoc => doc !== null);
  }

  /** Removes records older than a family can live (the sweeper). */
  async sweep(before: Date): Promise<number> {
    return (await this.model.deleteMany({ createdAt: { $lte: before } })).deletedCount;
  }
}
