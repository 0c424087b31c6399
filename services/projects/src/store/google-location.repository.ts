import { modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * The Google Business Profile location chosen as a project's business, and its last reviews sync:
 * one document per project (`_id` = the project id, read by `_id`). Each write `$set`s whole
 * values (the choice, or a sync's outcome), never a read-modify-write.
 */
export interface GoogleLocationDoc {
  /** The project id. */
  _id: string;
  /** The project's owner (whose data the reviews are). */
  userId: string;
  /** `accounts/{id}`. */
  account: string;
  /** `locations/{id}`. */
  location: string;
  title: string;
  address: string;
  chosenAt: Date;
  lastSyncedAt: Date | null;
  averageRating: number;
  totalReviewCount: number;
  /** Why the last sync failed; "" when it worked. */
  lastError: string;
}

const schema = new Schema<GoogleLocationDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    account: { type: String, required: true },
    location: { type: String, required: true },
    title: { type: String, default: "" },
    address: { type: String, default: "" },
    chosenAt: { type: Date, required: true },
    lastSyncedAt: { type: Date, default: null },
    averageRating: { type: Number, default: 0 },
    totalReviewCount: { type: Number, default: 0 },
    lastError: { type: String, default: "" },
  },
  { collection: "google_locations", versionKey: false },
);

export function googleLocationModel(connection: Connection): Model<GoogleLocationDoc> {
  return modelOn<GoogleLocationDoc>(connection, "GoogleLocation", schema);
}

export class GoogleLocationRepository {
  constructor(private readonly model: Model<GoogleLocationDoc>) {}

  /** The project's chosen location, or null. */
  get(projectId: string): Promise<GoogleLocationDoc | null> {
    return this.model.findById(projectId).lean<GoogleLocationDoc>().exec();
  }

  /** Chooses (or changes) the project's location; a new location starts without a sync. */
  async choose(doc: Omit<GoogleLocationDoc, "lastSyncedAt" | "averageRating" | "totalReviewCount" | "lastError">) {
    const { _id, ...rest } = doc;
    await this.model.updateOne(
      { _id },
      { $set: { ...rest, lastSyncedAt: null, averageRating: 0, totalReviewCount: 0, lastError: "" } },
      { upsert: true },
    );
  }

  /** Records a sync's outcome, only while `location` is still the project's choice. */
  async synced(
    projectId: string,
    location: string,
    outcome: { at: Date; averageRating: number; totalReviewCount: number } | { error: string },
  ): Promise<void> {
    const set =
      "error" in outcome
        ? { lastError: outcome.error }
        : {
            lastSyncedAt: outcome.at,
            averageRating: outcome.averageRating,
            totalReviewCount: outcome.totalReviewCount,
            lastError: "",
          };
    await this.model.updateOne({ _id: projectId, location }, { $set: set });
  }

  /** Every chosen location (project id, owner), for the periodic sync. Reads the whole cursor. */
  all(): Promise<Pick<GoogleLocationDoc, "_id" | "userId">[]> {
    return this.model.find({}, { _id: 1, userId: 1 }).lean<Pick<GoogleLocationDoc, "_id" | "userId">[]>().exec();
  }

  async remove(projectId: string): Promise<void> {
    await this.model.deleteOne({ _id: projectId });
  }
}
