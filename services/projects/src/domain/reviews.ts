import { parse } from "csv-parse/sync";

/**
 * Reviews of a business: validation of one review and reading them from CSV. Pure.
 */
export const REVIEW_LIMITS = { author: 120, text: 5000, reply: 4000, csvRows: 2000 } as const;

export interface ReviewInput {
  author?: string;
  rating?: number | string;
  text?: string;
  reviewedOn?: string;
}

export interface ValidReview {
  author: string;
  rating: number;
  text: string;
  reviewedOn: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A day as `YYYY-MM-DD` from `YYYY-MM-DD` or any date text Date can read; "" for none, null when unreadable. */
export function reviewDay(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  if (DATE.test(trimmed)) {
    const date = new Date(`${trimmed}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === trimmed ? trimmed : null;
  }
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/**
 * Checks a review: author required (≤ 120), rating a whole number 1 to 5 (star text such as "4/5"
 * or "★★★★" is read too), text ≤ 5000, date optional.
 * @returns the clean review, or every field error.
 */
export function validateReview(
  input: ReviewInput,
): { ok: true; value: ValidReview } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const author = (input.author ?? "").trim().replace(/\s+/g, " ");
  const text = (input.text ?? "").trim();
  const rating = readRating(input.rating);
  const reviewedOn = reviewDay(input.reviewedOn ?? "");
  if (author === "") fields.author = "Author is required";
  else if (author.length > REVIEW_LIMITS.author)
    fields.author = `Author must be at most ${REVIEW_LIMITS.author} characters`;
  if (rating === null) fields.rating = "Rating must be a whole number from 1 to 5";
  if (text.length > REVIEW_LIMITS.text) fields.text = `Text must be at most ${REVIEW_LIMITS.text} characters`;
  if (reviewedOn === null) fields.reviewedOn = "Date must be a date (YYYY-MM-DD)";
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, value: { author, rating: rating!, text, reviewedOn: reviewedOn! } };
}

function readRating(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isInteger(raw) && raw >= 1 && raw <= 5 ? raw : null;
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  const stars = [...text].filter((c) => c === "★").length;
  if (stars > 0 && /^[★☆\s]+$/.test(text)) return stars <= 5 ? stars : null;
  const match = text.match(/^(\d)(?:\s*\/\s*5)?(?:\s*stars?)?$/i);
  if (!match) return null;
  const value = Number(match[1]);
  return value >= 1 && value <= 5 ? value : null;
}

/** The key that makes a review unique in its project: author, day and text, case- and space-insensitive. */
export function reviewDedupeKey(review: ValidReview): string {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  return `${norm(review.author)}|${review.reviewedOn}|${norm(review.text)}`;
}

/** Column names a CSV header may use for each review field (lower case). */
const COLUMNS: Record<keyof ReviewInput, string[]> = {
  author: ["author", "name", "reviewer", "customer", "reviewer name"],
  rating: ["rating", "stars", "star rating", "score"],
  text: ["text", "review", "comment", "review text", "content"],
  reviewedOn: ["date", "reviewed on", "reviewedon", "created", "review date"],
};

export interface CsvReviewRow {
  /** 1-based line of the CSV. */
  line: number;
  review?: ValidReview;
  reason?: string;
}

/**
 * Reads reviews from CSV text. The first row is a header naming the columns (author/name/reviewer,
 * rating/stars, text/review/comment, date); without a recognisable header the columns are read as
 * author, rating, text, date. Each row is validated on its own.
 * @throws Error with a user-facing message when the text is not CSV or has more than 2000 rows.
 */
export function readReviewsCsv(csv: string): CsvReviewRow[] {
  let rows: string[][];
  try {
    rows = parse(csv.replace(/^\uFEFF/, ""), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    throw new Error(`The file is not valid CSV: ${(error as Error).message}`);
  }
  if (rows.length === 0) return [];
  const header = rows[0]!.map((cell) => cell.toLowerCase());
  const index = {} as Record<keyof ReviewInput, number>;
  let named = false;
  for (const [field, names] of Object.entries(COLUMNS) as [keyof ReviewInput, string[]][]) {
    const at = header.findIndex((cell) => names.includes(cell));
    index[field] = at;
    if (at >= 0) named = true;
  }
  const body = named ? rows.slice(1) : rows;
  if (!named) Object.assign(index, { author: 0, rating: 1, text: 2, reviewedOn: 3 });
  if (body.length > REVIEW_LIMITS.csvRows) throw new Error(`At most ${REVIEW_LIMITS.csvRows} reviews per file`);
  return body.map((row, i) => {
    const line = i + (named ? 2 : 1);
    const cell = (field: keyof ReviewInput) => (index[field] >= 0 ? (row[index[field]] ?? "") : "");
    const checked = validateReview({
      author: cell("author"),
      rating: cell("rating"),
      text: cell("text"),
      reviewedOn: cell("reviewedOn"),
    });
    return checked.ok ? { line, review: checked.value } : { line, reason: Object.values(checked.fields).join("; ") };
  });
}
