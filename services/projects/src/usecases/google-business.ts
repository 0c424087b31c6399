import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { AppError, appError, badRequest, type Caller, OutboundError } from "@crafter/kit";
import {
  GOOGLE_ACCOUNT_NAME,
  GOOGLE_ACCOUNT_NAME_MESSAGE,
  GOOGLE_LOCATION_NAME,
  GOOGLE_LOCATION_NAME_MESSAGE,
  profileFieldValue,
} from "@crafter/validation";
import { GoogleApiError, NoConnection } from "../clients/google-business";
import type { ProjectsDeps } from "../deps";
import {
  addressText,
  type ImportedReview,
  importedReview,
  LISTING_READ_MASK,
  type ListingChange,
  listingChanges,
  listingValues,
  reviewChanged,
} from "../domain/google-business";
import type { GoogleLocationDoc } from "../store/google-location.repository";
import { ownedProject } from "./owned";

// A project's Google Business Profile (DESIGN section 3: projects owns reviews and the business
// profile; account owns the connection and hands out its access token).

/** Pages of accounts, of locations, and of reviews (50 each) read at most in one go. */
const MAX_PAGES = { accounts: 10, locations: 10, reviews: 100 } as const;

export interface GoogleBusinessState {
  connection: "not_connected" | "needs_reconnecting" | "connected";
  location: GoogleLocationDoc | null;
}

/**
 * A Google call's failure as the user should see it:
 * - not connected / needs reconnecting, or Google refusing the token or the account (401, 403): CONFLICT;
 * - a location Google does not know for this account (404): NOT_FOUND;
 * - a request Google refuses (400, e.g. a reply too long): CR_ERR_BAD_REQUEST with Google's message;
 * - Google or the account service not answering (429 or 5xx after retries, network): UNAVAILABLE.
 */
export function googleFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof NoConnection)
    return appError(
      "CONFLICT",
      error.state === "not_connected"
        ? "Connect Google Business Profile in Settings › Integrations first."
        : "Google Business Profile needs reconnecting in Settings › Integrations.",
    );
  if (error instanceof GoogleApiError) {
    if (error.httpStatus === 401 || error.httpStatus === 403)
      return appError(
        "CONFLICT",
        "Google refused access to this Business Profile. Reconnect it in Settings › Integrations.",
      );
    if (error.httpStatus === 404) return appError("NOT_FOUND", "Google has no such location for this account.");
    if (error.httpStatus === 400) return badRequest({ google: `Google refused it: ${error.message}` });
    return appError("UNAVAILABLE", "Google did not answer. Try again in a moment.");
  }
  if (error instanceof OutboundError) return appError("UNAVAILABLE", "Google could not be reached.");
  if (error instanceof ConnectError && error.code === Code.Unavailable)
    return appError("UNAVAILABLE", "Google did not answer. Try again in a moment.");
  return error;
}

/** Runs `work` with the project's access token, failures as `googleFailure` says. */
async function withGoogle<T>(deps: ProjectsDeps, projectId: string, work: (token: string) => Promise<T>): Promise<T> {
  try {
    return await work(await deps.google.tokens.token(projectId));
  } catch (error) {
    throw googleFailure(error);
  }
}

/** The short text a failure leaves in `lastError`. */
function failureText(error: unknown): string {
  const mapped = googleFailure(error);
  return mapped instanceof Error ? mapped.message : "The sync failed.";
}

/**
 * The project's Google Business Profile: its connection's state (asked of account) and the chosen
 * location with its last sync. @throws NOT_FOUND (project)
 */
export async function getGoogleBusiness(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<GoogleBusinessState> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  let connection: GoogleBusinessState["connection"] = "connected";
  try {
    await deps.google.tokens.token(project.id);
  } catch (error) {
    // Account unreachable: the page still shows the location; a sync will say what is wrong.
    if (error instanceof NoConnection) connection = error.state;
  }
  const location = await deps.stores.googleLocations.get(project.id);
  return { connection, location: location && location.userId === caller.userId ? location : null };
}

export interface LocationChoice {
  name: string;
  account: string;
  title: string;
  address: string;
}

/**
 * Every location the connected Google account manages, across its accounts (Account Management
 * API) and their pages (Business Information API).
 * @throws NOT_FOUND (project), CONFLICT (not connected), UNAVAILABLE
 */
export async function listGoogleLocations(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<LocationChoice[]> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  return withGoogle(deps, project.id, async (token) => {
    const out: LocationChoice[] = [];
    let accountsPage = "";
    for (let a = 0; a < MAX_PAGES.accounts; a++) {
      const { accounts, nextPageToken } = await deps.google.api.accounts(token, accountsPage);
      for (const account of accounts) {
        let page = "";
        for (let l = 0; l < MAX_PAGES.locations; l++) {
          const listed = await deps.google.api.locations(token, account.name, "name,title,storefrontAddress", page);
          for (const location of listed.locations) {
            if (!location.name) continue;
            out.push({
              name: location.name,
              account: account.name,
              title: location.title ?? "",
              address: addressText(location.storefrontAddress),
            });
          }
          page = listed.nextPageToken;
          if (!page) break;
        }
      }
      accountsPage = nextPageToken;
      if (!accountsPage) break;
    }
    return out;
  });
}

/**
 * Chooses the location that is this business (Google confirms it: the location answers, and its
 * reviews answer under that account), then imports its reviews.
 * @throws NOT_FOUND (project, or not a location of that account), CR_ERR_BAD_REQUEST (names),
 *   CONFLICT (not connected), UNAVAILABLE
 */
export async function chooseGoogleLocation(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; account: string; location: string },
): Promise<{ location: GoogleLocationDoc; created: number; updated: number }> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const fields: Record<string, string> = {};
  if (!GOOGLE_ACCOUNT_NAME.test(input.account)) fields.account = GOOGLE_ACCOUNT_NAME_MESSAGE;
  if (!GOOGLE_LOCATION_NAME.test(input.location)) fields.location = GOOGLE_LOCATION_NAME_MESSAGE;
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  const listing = await withGoogle(deps, project.id, async (token) => {
    const found = await deps.google.api.location(token, input.location, "name,title,storefrontAddress");
    await deps.google.api.reviews(token, input.account, input.location, "");
    return found;
  });
  await deps.stores.googleLocations.choose({
    _id: project.id,
    userId: caller.userId,
    account: input.account,
    location: input.location,
    title: listing.title ?? "",
    address: addressText(listing.storefrontAddress),
    chosenAt: deps.now(),
  });
  const outcome = await syncGoogleReviews(deps, caller, { projectId: project.id });
  return outcome;
}

/**
 * Imports the chosen location's reviews (all pages, newest first): a review not yet here is
 * inserted with its ReviewReceived event (once: the unique key `google:<id>` guards concurrent
 * syncs); one whose text, rating, reviewer or reply changed at Google is updated; Google's
 * average and count are kept. A failure is recorded as the location's `lastError`.
 * @throws NOT_FOUND (project), CONFLICT (not connected, or no location chosen), UNAVAILABLE
 */
export async function syncGoogleReviews(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<{ location: GoogleLocationDoc; created: number; updated: number }> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const chosen = await deps.stores.googleLocations.get(project.id);
  if (!chosen || chosen.userId !== caller.userId)
    throw appError("CONFLICT", "Choose your Google Business Profile location first.");
  const owner = { userId: caller.userId, projectId: project.id };
  try {
    const { reviews, averageRating, totalReviewCount } = await withGoogle(deps, project.id, async (token) => {
      const all: ImportedReview[] = [];
      let page = "";
      let first: { averageRating: number; totalReviewCount: number } | null = null;
      for (let p = 0; p < MAX_PAGES.reviews; p++) {
        const answer = await deps.google.api.reviews(token, chosen.account, chosen.location, page);
        first ??= { averageRating: answer.averageRating, totalReviewCount: answer.totalReviewCount };
        for (const raw of answer.reviews) {
          const review = importedReview(raw);
          if (review) all.push(review);
        }
        page = answer.nextPageToken;
        if (!page) break;
      }
      return { reviews: all, ...(first ?? { averageRating: 0, totalReviewCount: 0 }) };
    });
    // A review on two pages (Google's order moved between calls) is imported once.
    const unique = [
      ...new Map(reviews.map((review) => [review.remoteId, { ...review, remoteLocation: chosen.location }])).values(),
    ];
    const stored = await deps.stores.reviews.remoteOf(caller.userId, project.id);
    const fresh = unique.filter((review) => !stored.has(review.remoteId));
    const inserted = await deps.stores.reviews.addRemote(
      owner,
      fresh,
      (review, reviewId) =>
        deps.events.reviewReceived({
          ...owner,
          reviewId,
          remoteReviewId: review.remoteId,
          location: chosen.location,
          author: review.author,
          rating: review.rating,
          text: review.text,
          reviewedAt: review.reviewedAt,
        }),
      randomUUID,
    );
    if (inserted.size > 0) deps.kick();
    let updated = 0;
    for (const review of unique) {
      const before = stored.get(review.remoteId);
      if (!before || !reviewChanged(before, review)) continue;
      await deps.stores.reviews.updateRemote(caller.userId, project.id, review);
      updated += 1;
    }
    await deps.stores.googleLocations.synced(project.id, chosen.location, {
      at: deps.now(),
      averageRating,
      totalReviewCount,
    });
    const location = (await deps.stores.googleLocations.get(project.id)) ?? chosen;
    return { location, created: inserted.size, updated };
  } catch (error) {
    await deps.stores.googleLocations
      .synced(project.id, chosen.location, { error: failureText(error) })
      .catch(() => undefined);
    throw error;
  }
}

/**
 * The periodic sync: every chosen location, one after another, as its project's owner. A failing
 * one is recorded on it and logged; the others go on.
 * @returns how many synced and how many failed.
 */
export async function syncAllGoogleLocations(deps: ProjectsDeps): Promise<{ synced: number; failed: number }> {
  let synced = 0;
  let failed = 0;
  for (const { _id, userId } of await deps.stores.googleLocations.all()) {
    try {
      await syncGoogleReviews(deps, { userId } as Caller, { projectId: _id });
      synced += 1;
    } catch (error) {
      failed += 1;
      deps.logger.warn({ err: error, projectId: _id }, "Google reviews sync failed");
    }
  }
  return { synced, failed };
}

/**
 * What filling the business profile from the chosen location's listing would change (nothing is
 * written here). @throws NOT_FOUND (project), CONFLICT (not connected or no location), UNAVAILABLE
 */
export async function previewGoogleListing(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<{ changes: ListingChange[]; values: Record<string, string | string[]> }> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const chosen = await deps.stores.googleLocations.get(project.id);
  if (!chosen || chosen.userId !== caller.userId)
    throw appError("CONFLICT", "Choose your Google Business Profile location first.");
  const listing = await withGoogle(deps, project.id, (token) =>
    deps.google.api.location(token, chosen.location, LISTING_READ_MASK),
  );
  const profile = await deps.stores.profiles.findById(caller.userId, project.profileId);
  if (!profile) throw appError("NOT_FOUND", "Profile not found");
  return listingChanges(listingValues(listing), (key) => profileFieldValue(profile, key));
}

/**
 * Writes (or, with "", deletes) a Google review's reply at Google. @throws CONFLICT (not connected,
 * or the review's location is no longer the chosen one), UNAVAILABLE, CR_ERR_BAD_REQUEST (Google refused it)
 * @returns the reply's time at Google (now when it does not say); null after a deletion.
 */
export async function replyAtGoogle(
  deps: ProjectsDeps,
  review: { projectId: string; remoteId: string; remoteLocation: string },
  reply: string,
): Promise<Date | null> {
  const chosen = await deps.stores.googleLocations.get(review.projectId);
  if (!chosen) throw appError("CONFLICT", "Choose your Google Business Profile location first.");
  // A review of a location chosen before: Google knows it under that location only.
  if (review.remoteLocation && review.remoteLocation !== chosen.location)
    throw appError("CONFLICT", "This review is from another Google location than the one chosen now.");
  return withGoogle(deps, review.projectId, async (token) => {
    if (!reply) {
      await deps.google.api.deleteReply(token, chosen.account, chosen.location, review.remoteId);
      return null;
    }
    return (
      (await deps.google.api.putReply(token, chosen.account, chosen.location, review.remoteId, reply)) ?? deps.now()
    );
  });
}
