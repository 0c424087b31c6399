import { idField, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** Profile types of spec section 3. */
export const PROFILE_TYPES = ["PROJECT", "PRODUCT", "SERVICE", "CAMPAIGN"] as const;
export type ProfileTypeName = (typeof PROFILE_TYPES)[number];

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
  },
  { collection: "profiles", timestamps: true, versionKey: false, minimize: false },
);
profileSchema.index({ userId: 1, projectId: 1 });

export function profileModel(connection: Connection): Model<ProfileDoc> {
  return modelOn<ProfileDoc>(connection, "Profile", profileSchema);
}

/** Profiles, always within their owner. */
export class ProfileRepository extends TenantRepository<ProfileDoc> {
  constructor(model: Model<ProfileDoc>) {
    super(model, "userId");
  }

  /** Removes a profile (used to undo a half-finished project creation). */
  async remove(userId: string, profileId: string): Promise<void> {
    await this.delete(userId, { _id: profileId });
  }
}
