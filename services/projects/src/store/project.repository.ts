import { idField, modelOn, type OutboxEntry, outboxField, type Plain, TenantRepository, toPlain } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { BrandVoice } from "../domain/brand-voice";

/** A project of one user; its PROJECT profile holds the descriptive fields. */
export interface ProjectDoc {
  _id: string;
  userId: string;
  /** The project's name (its PROJECT profile's name). */
  title: string;
  /** The project's PROJECT profile. */
  profileId: string;
  /** How the business writes (every workflow's prompt); absent until first set. */
  brandVoice?: BrandVoice;
  outbox: OutboxEntry[];
  createdAt: Date;
  updatedAt: Date;
}

export type Project = Plain<ProjectDoc>;

const projectSchema = new Schema<ProjectDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    title: { type: String, required: true },
    profileId: { type: String, required: true },
    brandVoice: {
      type: new Schema<BrandVoice>(
        {
          tone: { type: String, default: "" },
          wordsToUse: { type: [String], default: [] },
          wordsToAvoid: { type: [String], default: [] },
          exampleCopy: { type: String, default: "" },
        },
        { _id: false },
      ),
      required: false,
    },
    outbox: outboxField,
  },
  { collection: "projects", timestamps: true, versionKey: false },
);
projectSchema.index({ userId: 1, createdAt: 1 });

export function projectModel(connection: Connection): Model<ProjectDoc> {
  return modelOn<ProjectDoc>(connection, "Project", projectSchema);
}

/** Most projects one user's list returns. */
export const MAX_LISTED_PROJECTS = 500;

/** Projects, always within their owner. */
export class ProjectRepository extends TenantRepository<ProjectDoc> {
  constructor(model: Model<ProjectDoc>) {
    super(model, "userId");
  }

  /**
   * Inserts a project together with the event that announces it (one document write: the outbox
   * entry is committed exactly when the project is).
   */
  async createWithEvent(
    project: Pick<ProjectDoc, "_id" | "userId" | "title" | "profileId">,
    event: OutboxEntry,
  ): Promise<Project> {
    return this.create({ ...project, outbox: [event] });
  }

  async get(userId: string, projectId: string): Promise<Project | null> {
    return this.findById(userId, projectId);
  }

  /** The user's projects, oldest first (at most MAX_LISTED_PROJECTS). */
  async listForUser(userId: string): Promise<Project[]> {
    const docs = await this.model
      .find(this.scope(userId))
      .sort({ createdAt: 1, _id: 1 })
      .limit(MAX_LISTED_PROJECTS)
      .lean<ProjectDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  /** Renames one of the user's projects; null when it is not theirs. */
  async rename(userId: string, projectId: string, title: string): Promise<Project | null> {
    return this.update(userId, { _id: projectId }, { $set: { title } });
  }

  /** Replaces the brand voice of one of the user's projects; null when it is not theirs. */
  async setBrandVoice(userId: string, projectId: string, brandVoice: BrandVoice): Promise<Project | null> {
    return this.update(userId, { _id: projectId }, { $set: { brandVoice } });
  }

  /** Deletes one of the user's projects; false when it was not theirs (or already gone). */
  async remove(userId: string, projectId: string): Promise<boolean> {
    return this.delete(userId, { _id: projectId });
  }

  /**
   * A project by id, whoever owns it; null when there is none. Only for the team-member check
   * (usecases/project-access.ts), which decides whether the caller may see it.
   */
  async anyById(projectId: string): Promise<Project | null> {
    const doc = await this.model.findById(projectId).lean<ProjectDoc>();
    return doc ? toPlain(doc) : null;
  }

  /**
   * Projects by id, whoever owns them, in the order asked; null where there is none. One read by
   * `_id` each: FerretDB pushes `_id` equality down to PostgreSQL but not `$in` (docs/adr/0001).
   */
  async anyByIds(projectIds: readonly string[]): Promise<(Project | null)[]> {
    return Promise.all(projectIds.map((id) => this.anyById(id)));
  }

  /** The user's most recently created project, or null when they have none. */
  async latest(userId: string): Promise<Project | null> {
    const doc = await this.model.findOne(this.scope(userId)).sort({ createdAt: -1, _id: -1 }).lean<ProjectDoc>();
    return doc ? toPlain(doc) : null;
  }
}
