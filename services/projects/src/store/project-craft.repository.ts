import { insertOnce, modelOn, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A craft counted in a project (from CraftCreated). `_id` is the craft id, so a replayed event
 * inserts nothing new, and a project's crafts count is the number of these documents: exact and
 * idempotent even on FerretDB 1.24, whose `$inc` on a shared document loses concurrent updates
 * (measured: 20 concurrent increments gave 6) and would race the outbox relay's `$pull` on the
 * project document.
 */
export interface ProjectCraftDoc {
  _id: string;
  userId: string;
  projectId: string;
  workflowName: string;
  /** The profile the craft writes for ("" for none). */
  profileId: string;
  createdAt: Date;
}

const projectCraftSchema = new Schema<ProjectCraftDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    workflowName: { type: String, default: "" },
    profileId: { type: String, default: "" },
  },
  { collection: "project_crafts", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
projectCraftSchema.index({ userId: 1, projectId: 1 });
projectCraftSchema.index({ userId: 1, profileId: 1 });

export function projectCraftModel(connection: Connection): Model<ProjectCraftDoc> {
  return modelOn<ProjectCraftDoc>(connection, "ProjectCraft", projectCraftSchema);
}

/** Crafts counted per project, within their owner. */
export class ProjectCraftRepository extends TenantRepository<ProjectCraftDoc> {
  constructor(model: Model<ProjectCraftDoc>) {
    super(model, "userId");
  }

  /**
   * Counts a craft once.
   * @returns true when newly counted, false when this craft id was already counted.
   */
  async record(craft: {
    craftId: string;
    userId: string;
    projectId: string;
    workflowName: string;
    profileId?: string;
  }): Promise<boolean> {
    return insertOnce(this.model, {
      _id: craft.craftId,
      userId: craft.userId,
      projectId: craft.projectId,
      workflowName: craft.workflowName,
      profileId: craft.profileId ?? "",
    });
  }

  /** The crafts written for a profile, newest first (at most `limit`). */
  async forProfile(userId: string, profileId: string, limit = 200): Promise<ProjectCraftDoc[]> {
    return this.model
      .find(this.scope(userId, { profileId }))
      .sort({ createdAt: -1, _id: 1 })
      .limit(limit)
      .lean<ProjectCraftDoc[]>();
  }

  /** How many crafts the user's project has. */
  countFor(userId: string, projectId: string): Promise<number> {
    return this.count(userId, { projectId });
  }
}
