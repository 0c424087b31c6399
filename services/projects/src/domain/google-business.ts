import { PROFILE_FIELD_DEFS } from "@crafter/validation";

/**
 * Google Business Profile data as Crafter reads it (Business Information API v1 locations, My
 * Business API v4 reviews): a review as a Crafter review, a listing as business profile values, and
 * what filling the profile from the listing would change. Pure.
 */

/** Google's `StarRating` enum; STAR_RATING_UNSPECIFIED (and anything else) reads as 0. */
const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

export function starsOf(rating: unknown): number {
  return typeof rating === "string" ? (STARS[rating] ?? 0) : 0;
}

/** A v4 Review as Google answers it (the fields read here). */
export interface GoogleReview {
  reviewId?: string;
  reviewer?: { displayName?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

export interface ImportedReview {
  remoteId: string;
  author: string;
  rating: number;
  text: string;
  /** YYYY-MM-DD (UTC) of createTime; "" without one. */
  reviewedOn: string;
  reviewedAt: Date | null;
  reply: string;
  repliedAt: Date | null;
}

const time = (text: unknown): Date | null => {
  if (typeof text !== "string" || text === "") return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * A Google review as Crafter keeps it: an anonymous or unnamed reviewer is "A Google user" (as
 * Google shows them), the text and reply cut to Crafter's limits (5000 and 4000 characters).
 * @returns null for one without an id or a star rating (Google always sends both).
 */
export function importedReview(review: GoogleReview): ImportedReview | null {
  const remoteId = typeof review.reviewId === "string" ? review.reviewId.trim() : "";
  const rating = starsOf(review.starRating);
  if (!remoteId || rating === 0) return null;
  const name = review.reviewer?.isAnonymous ? "" : (review.reviewer?.displayName ?? "").trim();
  const reviewedAt = time(review.createTime);
  const reply = (review.reviewReply?.comment ?? "").slice(0, 4000);
  return {
    remoteId,
    author: (name || "A Google user").slice(0, 120),
    rating,
    text: (review.comment ?? "").slice(0, 5000),
    reviewedOn: reviewedAt ? reviewedAt.toISOString().slice(0, 10) : "",
    reviewedAt,
    reply,
    repliedAt: reply ? (time(review.reviewReply?.updateTime) ?? reviewedAt) : null,
  };
}

/** Whether a stored review differs from Google's (what a sync would change). */
export function reviewChanged(
  stored: Omit<ImportedReview, "remoteId" | "reviewedAt" | "repliedAt"> & {
    reviewedAt: Date | null;
    repliedAt: Date | null;
  },
  google: ImportedReview,
): boolean {
  return (
    stored.author !== google.author ||
    stored.rating !== google.rating ||
    stored.text !== google.text ||
    stored.reply !== google.reply ||
    (stored.reviewedAt?.getTime() ?? null) !== (google.reviewedAt?.getTime() ?? null)
  );
}

/** A Business Information API Location (the fields read here). */
export interface GoogleListing {
  name?: string;
  title?: string;
  storefrontAddress?: {
    regionCode?: string;
    postalCode?: string;
    administrativeArea?: string;
    locality?: string;
    addressLines?: string[];
  };
  phoneNumbers?: { primaryPhone?: string };
  websiteUri?: string;
  regularHours?: {
    periods?: {
      openDay?: string;
      openTime?: { hours?: number; minutes?: number };
      closeDay?: string;
      closeTime?: { hours?: number; minutes?: number };
    }[];
  };
  categories?: {
    primaryCategory?: { displayName?: string };
    additionalCategories?: { displayName?: string }[];
  };
}

/** The `readMask` Crafter asks locations with. */
export const LISTING_READ_MASK = "name,title,storefrontAddress,phoneNumbers,websiteUri,regularHours,categories";

/** A postal address on one line per part: street lines, town, area and postal code, region. */
export function addressText(address: GoogleListing["storefrontAddress"], separator = ", "): string {
  if (!address) return "";
  const town = [address.locality, address.administrativeArea, address.postalCode]
    .map((part) => (part ?? "").trim())
    .filter(Boolean)
    .join(" ");
  return [...(address.addressLines ?? []).map((line) => line.trim()), town, (address.regionCode ?? "").trim()]
    .filter(Boolean)
    .join(separator);
}

const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];
const dayName = (day: string) => day.charAt(0) + day.slice(1).toLowerCase();
const clock = (t: { hours?: number; minutes?: number } | undefined) =>
  `${String(t?.hours ?? 0).padStart(2, "0")}:${String(t?.minutes ?? 0).padStart(2, "0")}`;

/**
 * Opening hours as lines ("Monday 09:00–17:30"), Monday first; a day with two periods has two
 * lines; a period ending 24:00 (or 00:00 the next day) reads as open until midnight.
 */
export function hoursLines(hours: GoogleListing["regularHours"]): string[] {
  const periods = [...(hours?.periods ?? [])].filter((p) => p.openDay && DAYS.includes(p.openDay));
  periods.sort(
    (a, b) => DAYS.indexOf(a.openDay!) - DAYS.indexOf(b.openDay!) || clock(a.openTime).localeCompare(clock(b.openTime)),
  );
  return periods.map((p) => {
    const close = clock(p.closeTime) === "00:00" ? "24:00" : clock(p.closeTime);
    return `${dayName(p.openDay!)} ${clock(p.openTime)}–${close}`;
  });
}

/** The business profile values a listing gives (only what the listing has). */
export function listingValues(listing: GoogleListing): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  const title = (listing.title ?? "").trim();
  if (title) values.name = title.slice(0, 120);
  const address = addressText(listing.storefrontAddress, "\n");
  if (address) values.address = address.slice(0, 500);
  const phone = (listing.phoneNumbers?.primaryPhone ?? "").trim();
  if (phone) values.phone = phone.slice(0, 40);
  const website = (listing.websiteUri ?? "").trim();
  if (website) values.websiteUrl = website.slice(0, 2048);
  const hours = hoursLines(listing.regularHours);
  if (hours.length > 0) values.openingHours = hours.slice(0, 21);
  const categories = [listing.categories?.primaryCategory, ...(listing.categories?.additionalCategories ?? [])]
    .map((category) => (category?.displayName ?? "").trim())
    .filter(Boolean);
  if (categories.length > 0) values.categories = [...new Set(categories)].slice(0, 10);
  return values;
}

export interface ListingChange {
  key: string;
  label: string;
  current: string;
  proposed: string;
}

const asText = (value: unknown): string =>
  Array.isArray(value) ? value.map(String).join("\n") : typeof value === "string" ? value : "";

/** A website compared without its scheme's case or a trailing slash. */
const sameUrl = (a: string, b: string) => a.toLowerCase().replace(/\/+$/, "") === b.toLowerCase().replace(/\/+$/, "");

/**
 * What filling the profile from the listing changes: each listing value that differs from the
 * profile's (`current(key)`), in the profile form's order, with both as text.
 */
export function listingChanges(
  proposed: Record<string, string | string[]>,
  current: (key: string) => unknown,
): { changes: ListingChange[]; values: Record<string, string | string[]> } {
  const changes: ListingChange[] = [];
  const values: Record<string, string | string[]> = {};
  for (const def of PROFILE_FIELD_DEFS.PROJECT) {
    const value = proposed[def.key];
    if (value === undefined) continue;
    const now = asText(current(def.key));
    const next = asText(value);
    const same = def.key === "websiteUrl" ? sameUrl(now, next) : now.trim() === next.trim();
    if (same) continue;
    changes.push({ key: def.key, label: def.label, current: now, proposed: next });
    values[def.key] = value;
  }
  return { changes, values };
}
