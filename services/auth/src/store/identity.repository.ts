import { isDuplicateKey } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A sign-in identity at a provider linked to an account (Google's `sub`). Keyed by provider and
 * subject, so one Google account signs in to one account; a unique (user, provider) index keeps one
 * identity of a provider per account. Inserted once, removed by Unlink; never updated.
 */
export interface IdentityDoc {
  /** `<provider>:<subject>`. */
  _id: string;
  provider: "google";
  subject: string;
  userId: string;
  /** The identity's email when it was linked. */
  email: string;
  createdAt: Date;
}

const schema = new Schema<IdentityDoc>(
  {
    _id: String,
    provider: { type: String, required: true },
    subject: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    email: { type: String, default: "" },
    createdAt: { type: Date, default: Date.now },
  },
  { versionKey: false },
);
schema.index({ userId: 1, provider: 1 }, { unique: true });

const idOf = (provider: string, subject: string) => `${provider}:${subject}`;

export class IdentityRepository {
  readonly model: Model<IdentityDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<IdentityDoc>("Identity", schema, "identities");
  }

  async findBySubject(provider: "google", subject: string): Promise<IdentityDoc | null> {
    return this.model.findById(idOf(provider, subject)).lean<IdentityDoc>();
  }

  async listOfUser(userId: string): Promise<IdentityDoc[]> {
    return this.model.find({ userId }).sort({ createdAt: 1 }).lean<IdentityDoc[]>();
  }

  /**
   * Links `subject` to `userId`.
   * @returns true when linked now or already linked to that user; false when the subject is linked to
   *   another account or the user already has another identity of the provider.
   */
  async link(provider: "google", subject: string, userId: string, email: string, now: Date): Promise<boolean> {
    try {
      await this.model.create({ _id: idOf(provider, subject), provider, subject, userId, email, createdAt: now });
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const existing = await this.findBySubject(provider, subject);
      return existing?.userId === userId;
    }
  }

  /** @returns whether an identity of `provider` was unlinked from the user. */
  async unlink(userId: string, provider: "google"): Promise<boolean> {
    return (await this.model.deleteOne({ userId, provider })).deletedCount > 0;
  }
}
