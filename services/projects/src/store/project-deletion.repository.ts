import { insertOnce, modelOn, type OutboxEntry, outboxField, outboxMinuteField, outboxMinuteOf } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** A deleted project's tombstone: carries ProjectDeleted, written before the project's data goes. */
export interface ProjectDeletionDoc {
  /** The project's id: one tombstone per project, whoever deletes it and however often. */
  _id: string;
  userId: string;
  title: string;
  at: Date;
  outbox: OutboxEntry[];
  outboxMinute: number;
}

const deletionSchema = new Schema<ProjectDeletionDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    title: { type: String, default: "" },
    at: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "project_deletions", versionKey: false },
);

export function projectDeletionModel(connection: Connection): Model<ProjectDeletionDoc> {
  return modelOn<ProjectDeletionDoc>(connection, "ProjectDeletion", deletionSchema);
}

/** Tombstones of deleted projects (insert-only; the relay publishes their ProjectDeleted). */
export class ProjectDeletionRepository {
  constructor(private readonly model: Model<ProjectDeletionDoc>) {}

  /**
   * Writes the tombstone with its event. @returns false when the project already has one (a retried
   * delete): its event is already on its way, and no second one is written.
   */
  async tombstone(
    project: { id: string; userId: string; title: string },
    at: Date,
    event: OutboxEntry,
  ): Promise<boolean> {
    return insertOnce(this.model, {
      _id: project.id,
      userId: project.userId,
      title: project.title,
      at,
      outbox: [event],
      outboxMinute: outboxMinuteOf(event.time),
    });
  }
}
