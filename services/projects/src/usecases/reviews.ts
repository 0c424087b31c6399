import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import {
  REVIEW_LIMITS,
  type ReviewInput,
  readReviewsCsv,
  reviewDedupeKey,
  type ValidReview,
  validateReview,
} from "../domain/reviews";
import type { Review } from "../store/review.repository";
import { replyAtGoogle } from "./google-business";
import { ownedProject } from "./owned";

// The business/reviews use cases: reviews entered by hand or read from CSV, and their replies.

/** Default and largest page size of the reviews list. */
export const REVIEWS_PAGE = { size: 20, max: 100 } as const;

/** A page of a project's reviews, newest first. @throws NOT_FOUND */
export async function listReviews(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; page: number; pageSize: number },
) {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const page = Math.max(1, Math.floor(input.page) || 1);
  const pageSize = Math.min(REVIEWS_PAGE.max, Math.max(1, Math.floor(input.pageSize) || REVIEWS_PAGE.size));
  return deps.stores.reviews.page(caller.userId, project.id, page, pageSize);
}

async function insertReview(
  deps: ProjectsDeps,
  userId: string,
  projectId: string,
  review: ValidReview,
  source: string,
): Promise<{ id: string; created: boolean }> {
  const id = randomUUID();
  const created = await deps.stores.reviews.add({
    _id: id,
    userId,
    projectId,
    ...review,
    source,
    dedupeKey: reviewDedupeKey(review),
  });
  return { id, created };
}

/**
 * Adds a review entered by hand.
 * @throws AppError NOT_FOUND (project), CR_ERR_BAD_REQUEST (field errors), CONFLICT when the same
 *   review (author, date and text) is already there.
 */
export async function createReview(
  deps: ProjectsDeps,
  caller: Caller,
  input: ReviewInput & { projectId: string },
): Promise<Review> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const checked = validateReview(input);
  if (!checked.ok) throw badRequest(checked.fields);
  const { id, created } = await insertReview(deps, caller.userId, project.id, checked.value, "manual");
  if (!created) throw appError("CONFLICT", "This review is already there.");
  const review = await deps.stores.reviews.findById(caller.userId, id);
  if (!review) throw appError("NOT_FOUND", "Review not found");
  return review;
}

/**
 * Imports reviews from CSV text; rows already imported are skipped, bad rows reported by line.
 * @throws AppError NOT_FOUND (project), CR_ERR_BAD_REQUEST ({ csv }) when the text is not CSV,
 *   is empty, or has too many rows.
 */
export async function importReviews(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; csv: string },
): Promise<{ created: number; skipped: number; errors: { line: number; reason: string }[] }> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  let rows: ReturnType<typeof readReviewsCsv>;
  try {
    rows = readReviewsCsv(input.csv);
  } catch (error) {
    throw badRequest({ csv: (error as Error).message });
  }
  if (rows.length === 0) throw badRequest({ csv: "The file has no reviews" });
  let created = 0;
  let skipped = 0;
  const errors: { line: number; reason: string }[] = [];
  for (const row of rows) {
    if (!row.review) {
      errors.push({ line: row.line, reason: row.reason ?? "Invalid row" });
      continue;
    }
    const outcome = await insertReview(deps, caller.userId, project.id, row.review, "csv");
    if (outcome.created) created += 1;
    else skipped += 1;
  }
  return { created, skipped, errors };
}

/**
 * Saves (or, with "", clears) the reply to one of the caller's reviews. A review from Google has
 * its reply written (PUT) or deleted (DELETE) at Google first; the reply is kept here only once
 * Google took it.
 * @throws AppError NOT_FOUND, CR_ERR_BAD_REQUEST ({ reply }) when longer than 4000 characters;
 *   for a Google review also CONFLICT (not connected) and UNAVAILABLE (Google did not answer).
 */
export async function replyToReview(
  deps: ProjectsDeps,
  caller: Caller,
  input: { reviewId: string; reply: string },
): Promise<Review> {
  if (!input.reviewId) throw badRequest({ reviewId: "Review id is required" });
  const reply = input.reply.trim();
  if (reply.length > REVIEW_LIMITS.reply)
    throw badRequest({ reply: `The reply must be at most ${REVIEW_LIMITS.reply} characters` });
  const existing = await deps.stores.reviews.findById(caller.userId, input.reviewId);
  if (!existing) throw appError("NOT_FOUND", "Review not found");
  let at = deps.now();
  if (existing.source === "google" && existing.remoteId) {
    if (!reply && !existing.reply) return existing;
    at = (await replyAtGoogle(deps, existing, reply)) ?? at;
  }
  const review = await deps.stores.reviews.reply(caller.userId, input.reviewId, reply, at);
  if (!review) throw appError("NOT_FOUND", "Review not found");
  return review;
}

/**
 * Deletes one of the caller's reviews entered here. @throws NOT_FOUND; CONFLICT for a review from
 * Google (it would come back with the next sync: only Google removes it).
 */
export async function deleteReview(deps: ProjectsDeps, caller: Caller, input: { reviewId: string }): Promise<void> {
  if (!input.reviewId) throw badRequest({ reviewId: "Review id is required" });
  const existing = await deps.stores.reviews.findById(caller.userId, input.reviewId);
  if (existing?.source === "google")
    throw appError("CONFLICT", "A review from Google stays while it is on Google; you can reply to it.");
  if (!(await deps.stores.reviews.remove(caller.userId, input.reviewId)))
    throw appError("NOT_FOUND", "Review not found");
}
