import {
  idField,
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
  type Plain,
  TenantRepository,
  toPlain,
} from "@crafter/kit";
import { PROFILE_TYPES, type ProfileTypeName } from "@crafter/validation";
import { type Connection, type Model, type QueryFilter, Schema, type UpdateQuery } from "mongoose";

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
  /** Where the profile is kept in sync from: "" (made here) or "shopify" (a store's product). */
  source?: string;
  /** The source's id of it (a product's GraphQL id); "" when made here. */
  sourceId?: string;
  /** The media library's copies of its images (a Shopify product's), in the order of `fields.images`. */
  mediaAssetIds?: string[];
  /** The source's version of what was written last (a product's updatedAt, with the mapping's version). */
  sourceVersion?: string;
  createdAt: Date;
  updatedAt: Date;
  /** ProfileUpdated events, written with each change (kit outbox); never read back by the service. */
  outbox?: OutboxEntry[];
  outboxMinute?: number;
}

export type Profile = Omit<Plain<ProfileDoc>, "outboxMinute">;

/** Reads leave the outbox in the database. */
const NO_OUTBOX = { outbox: 0, outboxMinute: 0 } as const;

/** `toPlain` drops the outbox; the relay's minute goes too. */
function withoutOutbox(doc: Plain<ProfileDoc>): Profile {
  const { outboxMinute: _minute, ...profile } = doc;
  return profile;
}

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
    source: { type: String, default: "" },
    sourceId: { type: String, default: "" },
    mediaAssetIds: { type: [String], default: undefined },
    sourceVersion: String,
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "profiles", timestamps: true, versionKey: false, minimize: false },
);
profileSchema.index({ userId: 1, projectId: 1 });
profileSchema.index({ userId: 1, projectId: 1, type: 1 });
profileSchema.index({ projectId: 1, source: 1 });

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

  override async findOne(userId: string, filter: QueryFilter<ProfileDoc>): Promise<Profile | null> {
    const doc = await this.model.findOne(this.scope(userId, filter), NO_OUTBOX).lean<ProfileDoc>();
    return doc ? withoutOutbox(toPlain(doc)) : null;
  }

  override async create(doc: Partial<ProfileDoc>): Promise<Profile> {
    return withoutOutbox(await super.create(doc));
  }

  /** Removes a profile (used to undo a half-finished project creation). */
  async remove(userId: string, profileId: string): Promise<void> {
    await this.delete(userId, { _id: profileId });
  }

  /** A project's profiles, oldest first; one type when given. */
  async listFor(userId: string, projectId: string, type?: ProfileTypeName): Promise<Profile[]> {
    const filter = type ? { projectId, type } : { projectId };
    const docs = await this.model
      .find(this.scope(userId, filter), NO_OUTBOX)
      .sort({ createdAt: 1, _id: 1 })
      .limit(MAX_LISTED_PROFILES)
      .lean<ProfileDoc[]>();
    return docs.map((doc) => withoutOutbox(toPlain(doc)));
  }

  /**
   * Applies `$set` paths to one of the user's profiles together with the ProfileUpdated that
   * announces them (one document update: the event is committed exactly when the change is).
   * @returns the profile after the change; null when it is not theirs.
   */
  async patch(
    userId: string,
    profileId: string,
    set: Record<string, unknown>,
    event: OutboxEntry,
  ): Promise<Profile | null> {
    const updated = await this.update(userId, { _id: profileId }, {
      $set: { ...set, outboxMinute: outboxMinuteOf(event.time) },
      $push: { outbox: event },
    } as UpdateQuery<ProfileDoc>);
    return updated ? withoutOutbox(updated) : null;
  }

  /**
   * Writes a profile kept in sync from a source (a Shopify product), by its derived `_id`: created
   * on the first write, its source-owned fields replaced on later ones (the owner's other fields
   * stay), with its ProfileUpdated in the same update. One upsert, no read first: concurrent writes
   * of one product meet on the `_id` (the loser of a simultaneous insert retries as an update).
   */
  async upsertFromSource(input: {
    id: string;
    userId: string;
    projectId: string;
    source: string;
    sourceId: string;
    core: Record<string, unknown>;
    fields: Record<string, unknown>;
    sections: Record<string, unknown>;
    event: OutboxEntry;
    at: Date;
  }): Promise<void> {
    const set: Record<string, unknown> = {
      ...input.core,
      source: input.source,
      sourceId: input.sourceId,
      updatedAt: input.at,
    };
    for (const [key, value] of Object.entries(input.fields)) set[`fields.${key}`] = value;
    const update = {
      $set: { ...set, outboxMinute: outboxMinuteOf(input.event.time) },
      $setOnInsert: {
        userId: input.userId,
        projectId: input.projectId,
        type: "PRODUCT",
        audience: "",
        websiteUrl: "",
        sections: input.sections,
        createdAt: input.at,
      },
      $push: { outbox: input.event },
    };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.model.updateOne({ _id: input.id, userId: input.userId }, update as UpdateQuery<ProfileDoc>, {
          upsert: true,
          timestamps: false,
        });
        return;
      } catch (error) {
        if (attempt > 0 || !isDuplicateKey(error)) throw error;
      }
    }
  }

  /**
   * What a profile kept in sync from a source was last written from (read by `_id`): the source's
   * version and how many image copies it holds; null when there is none.
   */
  async sourceStateOf(userId: string, id: string): Promise<{ sourceVersion: string; copies: number } | null> {
    const doc = await this.model
      .findOne({ _id: id, userId }, { sourceVersion: 1, mediaAssetIds: 1 })
      .lean<Pick<ProfileDoc, "sourceVersion" | "mediaAssetIds">>();
    return doc ? { sourceVersion: doc.sourceVersion ?? "", copies: doc.mediaAssetIds?.length ?? 0 } : null;
  }

  /** The `_id`s of a project's profiles kept in sync from `source`. */
  async idsFromSource(projectId: string, source: string): Promise<string[]> {
    const docs = await this.model.find({ projectId, source }, { _id: 1 }).lean<{ _id: string }[]>();
    return docs.map((doc) => doc._id);
  }

  /** Removes a profile kept in sync from a source (it was deleted there). @returns whether there was one. */
  async removeFromSource(userId: string, id: string, source: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id, userId, source })).deletedCount > 0;
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
