import { idField, modelOn, type Plain, TenantRepository, toPlain } from "@crafter/kit";
import { PROFILE_TYPES, type ProfileTypeName } from "@crafter/kit/validation";
import { type Connection, type Model, Schema, type UpdateQuery } from "mongoose";

export { PROFILE_TYPES, type ProfileTypeName };

/** A profile of a project: the PROJECT one describes the business; others describe offerings. */
export interface ProfileDoc {
  _id: string;
  userId: string;
  projectId: string;
  type: ProfileTypeName;
  name: string;
  description: string;
  audience: string;
  keywords: string[];
  /** Normalised URL with its scheme, or "". */
  websiteUrl: string;
  /** Type-specific fields (product, service, campaign) by their spec names. */
  fields: Record<string, unknown>;
  /** The profile sections (spec section 3): crafts, profileReference, steps, results, profileItems, inputBindingValues. */
  sections: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export type Profile = Plain<ProfileDoc>;

const profileSchema = new Schema<ProfileDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, enum: PROFILE_TYPES, required: true },
    name: { type: String, required: true },
    description: { type: String, default: "" },
    audience: { type: String, default: "" },
    keywords: { type: [String], default: [] },
    websiteUrl: { type: String, default: "" },
    fields: { type: Schema.Types.Mixed, default: {} },
    sections: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: "profiles", timestamps: true, versionKey: false, minimize: false },
);
profileSchema.index({ userId: 1, projectId: 1 });
profileSchema.index({ userId: 1, projectId: 1, type: 1 });

export function profileModel(connection: Connection): Model<ProfileDoc> {
  return modelOn<ProfileDoc>(connection, "Profile", profileSchema);
}

/** Most profiles one project's list returns. */
export const MAX_LISTED_PROFILES = 500;

/** Profiles, always within their owner. */
export class ProfileRepository extends TenantRepository<ProfileDoc> {
  constructor(model: Model<ProfileDoc>) {
    super(model, "userId");
  }

  /** Removes a profile (used to undo a half-finished project creation). */
  async remove(userId: string, profileId: string): Promise<void> {
    await this.delete(userId, { _id: profileId });
  }

  /** A project's profiles, oldest first; one type when given. */
  async listFor(userId: string, projectId: string, type?: ProfileTypeName): Promise<Profile[]> {
    const filter = type ? { projectId, type } : { projectId };
    const docs = await this.model
      .find(this.scope(userId, filter))
      .sort({ createdAt: 1, _id: 1 })
      .limit(MAX_LISTED_PROFILES)
      .lean<ProfileDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  /** Applies `$set` paths to one of the user's profiles; null when it is not theirs. */
  async patch(userId: string, profileId: string, set: Record<string, unknown>): Promise<Profile | null> {
    return this.update(userId, { _id: profileId }, { $set: set } as UpdateQuery<ProfileDoc>);
  }

  /** Removes every profile of a project. */
  async removeForProject(userId: string, projectId: string): Promise<void> {
    await this.model.deleteMany(this.scope(userId, { projectId }));
  }

  /**
   * The project a profile belongs to, whoever owns it; "" when there is no such profile. Only for
   * the team-member check (usecases/project-access.ts), which then decides who may act on it.
   */
  async projectIdOf(profileId: string): Promise<string> {
    const doc = await this.model.findById(profileId, { projectId: 1 }).lean<Pick<ProfileDoc, "projectId">>();
    return doc?.projectId ?? "";
  }
}
