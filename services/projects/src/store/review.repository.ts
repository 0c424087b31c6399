import {
  idField,
  insertEachOnce,
  insertOnce,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
  type Plain,
  TenantRepository,
  toPlain,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A review of a project's business (business/reviews). `dedupeKey` is unique per project: for a
 * review entered by hand or from CSV, its author, day and text, normalised (importing the same CSV
 * twice adds nothing); for one imported from Google, `google:<Google's review id>`, so every sync
 * finds it again instead of adding it twice. A Google review is inserted with its ReviewReceived
 * event in its outbox: the review and its announcement are one write.
 */
export interface ReviewDoc {
  _id: string;
  userId: string;
  projectId: string;
  author: string;
  /** 1 to 5. */
  rating: number;
  text: string;
  /** manual | csv | google (a Google Business Profile location's). */
  source: string;
  /** YYYY-MM-DD, or "" when unknown. */
  reviewedOn: string;
  dedupeKey: string;
  reply: string;
  repliedAt: Date | null;
  /** Google's id of the review; "" for one entered here. */
  remoteId: string;
  /** The Google location it was imported from (`locations/{id}`); "" for one entered here. */
  remoteLocation: string;
  /** When the reviewer wrote it (Google's createTime); null when unknown. */
  reviewedAt: Date | null;
  outbox: OutboxEntry[];
  outboxMinute?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What a sync writes of a Google review (its key is `google:<remoteId>`). */
export interface RemoteReview {
  remoteId: string;
  remoteLocation: string;
  author: string;
  rating: number;
  text: string;
  reviewedOn: string;
  reviewedAt: Date | null;
  reply: string;
  repliedAt: Date | null;
}

/** A remote review's key in its project. */
export const remoteKey = (remoteId: string) => `google:${remoteId}`;

export type Review = Plain<ReviewDoc>;

const reviewSchema = new Schema<ReviewDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    author: { type: String, required: true },
    rating: { type: Number, required: true },
    text: { type: String, default: "" },
    source: { type: String, default: "manual" },
    reviewedOn: { type: String, default: "" },
    dedupeKey: { type: String, required: true },
    reply: { type: String, default: "" },
    repliedAt: { type: Date, default: null },
    remoteId: { type: String, default: "" },
    remoteLocation: { type: String, default: "" },
    reviewedAt: { type: Date, default: null },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "reviews", timestamps: true, versionKey: false },
);
reviewSchema.index({ userId: 1, projectId: 1, dedupeKey: 1 }, { unique: true });

export function reviewModel(connection: Connection): Model<ReviewDoc> {
  return modelOn<ReviewDoc>(connection, "Review", reviewSchema);
}

/** Reviews, always within their owner. */
export class ReviewRepository extends TenantRepository<ReviewDoc> {
  constructor(model: Model<ReviewDoc>) {
    super(model, "userId");
  }

  /** Inserts a review once. @returns false when the same review (dedupeKey) is already there. */
  add(
    review: Omit<
      ReviewDoc,
      | "reply"
      | "repliedAt"
      | "createdAt"
      | "updatedAt"
      | "remoteId"
      | "remoteLocation"
      | "reviewedAt"
      | "outbox"
      | "outboxMinute"
    >,
  ): Promise<boolean> {
    // Its day as the time it was written, so the list orders it among Google's reviews.
    const reviewedAt = review.reviewedOn ? new Date(`${review.reviewedOn}T00:00:00Z`) : null;
    return insertOnce(this.model, { ...review, reply: "", repliedAt: null, reviewedAt });
  }

  /**
   * Inserts remote reviews not yet in the project, each with its event (`announce`), in one
   * unordered insert; the unique key makes concurrent syncs insert each once.
   * @returns the ids of the reviews this call inserted, by remote id.
   */
  async addRemote(
    owner: { userId: string; projectId: string },
    reviews: RemoteReview[],
    announce: (review: RemoteReview, id: string) => OutboxEntry,
    newId: () => string,
  ): Promise<Map<string, string>> {
    const docs = reviews.map((review) => {
      const _id = newId();
      const event = announce(review, _id);
      return {
        _id,
        ...owner,
        ...review,
        source: "google",
        dedupeKey: remoteKey(review.remoteId),
        outbox: [event],
        outboxMinute: outboxMinuteOf(event.time),
      };
    });
    const inserted = await insertEachOnce(this.model, docs);
    return new Map(docs.filter((_, i) => inserted[i]).map((doc) => [doc.remoteId, doc._id]));
  }

  /** The project's Google reviews as stored (their remote fields), by remote id. Reads the whole cursor. */
  async remoteOf(userId: string, projectId: string): Promise<Map<string, Review>> {
    const docs = await this.model.find(this.scope(userId, { projectId, source: "google" })).lean<ReviewDoc[]>();
    return new Map(docs.map((doc) => [doc.remoteId, toPlain(doc)]));
  }

  /** Sets a Google review's fields as Google has them now (idempotent). */
  async updateRemote(userId: string, projectId: string, review: RemoteReview): Promise<void> {
    await this.model.updateOne(this.scope(userId, { projectId, dedupeKey: remoteKey(review.remoteId) }), {
      $set: { ...review },
    });
  }

  /** A project's reviews, the most recently written first (then the most recently added; undated last). */
  page(userId: string, projectId: string, page: number, pageSize: number) {
    return this.list(userId, { projectId }, { page, pageSize, sort: { reviewedAt: -1, createdAt: -1, _id: 1 } });
  }

  reply(userId: string, reviewId: string, reply: string, at: Date): Promise<Review | null> {
    return this.update(userId, { _id: reviewId }, { $set: { reply, repliedAt: reply ? at : null } });
  }

  remove(userId: string, reviewId: string): Promise<boolean> {
    return this.delete(userId, { _id: reviewId });
  }

  async removeForProject(userId: string, projectId: string): Promise<void> {
    await this.model.deleteMany(this.scope(userId, { projectId }));
  }
}
