import type { JWK } from "jose";
import { type Connection, type Model, Schema } from "mongoose";

interface SigningKeyDoc {
  /** The key id (`kid`). */
  _id: string;
  privateJwk: JWK;
  createdAt: Date;
}

const schema = new Schema<SigningKeyDoc>({
  _id: String,
  privateJwk: { type: Schema.Types.Mixed, required: true },
  createdAt: { type: Date, default: Date.now },
});

/** Generated signing keys, shared by every auth replica through the database. */
export class SigningKeyRepository {
  readonly model: Model<SigningKeyDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<SigningKeyDoc>("SigningKey", schema, "signing_keys");
  }

  /** Oldest first, so replicas that raced to create a key all sign with the same one. */
  async all(): Promise<SigningKeyDoc[]> {
    return this.model.find().sort({ createdAt: 1, _id: 1 }).lean<SigningKeyDoc[]>();
  }

  async insert(kid: string, privateJwk: JWK): Promise<void> {
    await this.model.create({ _id: kid, privateJwk });
  }
}
