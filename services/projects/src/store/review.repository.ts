import { idField, insertOnce, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A review of a project's business (business/reviews). `dedupeKey` (author, day and text,
 * normalised) is unique per project, so importing the same CSV twice adds nothing.
 */
export interface ReviewDoc {
  _id: string;
  userId: string;
  projectId: string;
  author: string;
  /** 1 to 5. */
  rating: number;
  text: string;
  /** manual | csv (google is kept for a Google Business Profile import). */
  source: string;
  /** YYYY-MM-DD, or "" when unknown. */
  reviewedOn: string;
  dedupeKey: string;
  reply: string;
  repliedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

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
  add(review: Omit<ReviewDoc, "reply" | "repliedAt" | "createdAt" | "updatedAt">): Promise<boolean> {
    return insertOnce(this.model, { ...review, reply: "", repliedAt: null });
  }

  /** A project's reviews, newest first. */
  page(userId: string, projectId: string, page: number, pageSize: number) {
    return this.list(userId, { projectId }, { page, pageSize, sort: { createdAt: -1, _id: 1 } });
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
