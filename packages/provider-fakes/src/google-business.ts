import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LocalOAuthServer } from "./oauth-server";

/**
 * A local Google Business Profile for tests, speaking the documented HTTP protocol of three APIs on
 * one port (each API's base URL points here; the paths do not overlap):
 *
 * - Account Management API v1: `GET /v1/accounts` (pageSize ≤ 20 default 20, pageToken);
 * - Business Information API v1: `GET /v1/accounts/{a}/locations?readMask=…` (pageSize ≤ 100,
 *   default 10, pageToken, `totalSize`) and `GET /v1/locations/{l}?readMask=…`; `readMask` is
 *   required, names top-level Location fields, and only those fields are answered;
 * - Google My Business API v4 reviews: `GET /v4/accounts/{a}/locations/{l}/reviews` (pageSize ≤ 50,
 *   default 50, pageToken, orderBy `updateTime desc` (default), `rating`, `rating desc`; answers
 *   `averageRating`, `totalReviewCount`, `nextPageToken` only when more remain),
 *   `PUT …/reviews/{r}/reply` (`{comment}` → the ReviewReply) and `DELETE …/reviews/{r}/reply` (`{}`).
 *
 * Every call needs `Authorization: Bearer <token>`, live at the local OAuth server or registered
 * with `allowToken`; errors are Google's JSON (`{"error":{"code","message","status"}}`):
 * 401 UNAUTHENTICATED, 400 INVALID_ARGUMENT, 404 NOT_FOUND, 429 RESOURCE_EXHAUSTED (`failNext`).
 * Page tokens are opaque; one that was not issued is INVALID_ARGUMENT.
 */
export interface BusinessLocation {
  /** `locations/{id}`. */
  name: string;
  title: string;
  storefrontAddress?: {
    regionCode: string;
    languageCode?: string;
    postalCode?: string;
    administrativeArea?: string;
    locality?: string;
    addressLines?: string[];
  };
  phoneNumbers?: { primaryPhone?: string; additionalPhones?: string[] };
  websiteUri?: string;
  regularHours?: {
    periods: {
      openDay: string;
      openTime: { hours?: number; minutes?: number };
      closeDay: string;
      closeTime: { hours?: number; minutes?: number };
    }[];
  };
  categories?: {
    primaryCategory?: { name: string; displayName: string };
    additionalCategories?: { name: string; displayName: string }[];
  };
  metadata?: { placeId?: string; mapsUri?: string };
}

export type StarRating = "ONE" | "TWO" | "THREE" | "FOUR" | "FIVE";

export interface BusinessReview {
  reviewId: string;
  reviewer: { displayName: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating: StarRating;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

const LOCATION_FIELDS = new Set([
  "name",
  "title",
  "storefrontAddress",
  "phoneNumbers",
  "websiteUri",
  "regularHours",
  "categories",
  "metadata",
]);
const STARS: Record<StarRating, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

export class LocalGoogleBusinessServer {
  private server: Server | undefined;
  private readonly accounts: { name: string; accountName: string; type: string }[] = [];
  /** Account name → its location names. */
  private readonly accountLocations = new Map<string, string[]>();
  private readonly locations = new Map<string, BusinessLocation>();
  /** Location id → its reviews. */
  private readonly reviews = new Map<string, BusinessReview[]>();
  private readonly tokens = new Set<string>();
  private failures = { count: 0, status: 429 };
  /** What the provider saw, for the tests to assert. */
  readonly seen = {
    requests: 0,
    unauthenticated: 0,
    reviewLists: 0,
    /** Every reply written (PUT), in order. */
    repliesPut: [] as { review: string; comment: string }[],
    repliesDeleted: [] as string[],
    readMasks: [] as string[],
  };

  constructor(private readonly options: { oauth?: LocalOAuthServer } = {}) {}

  /** Listens on 127.0.0.1:`port` (0: any). @returns the port. */
  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => googleError(res, 500, "INTERNAL", error.message));
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** A Bearer token the APIs take besides the OAuth server's live ones. */
  allowToken(token: string): void {
    if (token) this.tokens.add(token);
  }

  /** The next `count` calls answer `status` (429 RESOURCE_EXHAUSTED or 503 UNAVAILABLE). */
  failNext(count: number, status = 429): void {
    this.failures = { count, status };
  }

  /** Adds an account (`accounts/{id}`). */
  addAccount(id: string, accountName: string, type = "PERSONAL"): string {
    const name = `accounts/${id}`;
    this.accounts.push({ name, accountName, type });
    this.accountLocations.set(name, []);
    return name;
  }

  /** Adds a location (`locations/{id}`) to an account. */
  addLocation(account: string, location: Omit<BusinessLocation, "name"> & { id: string }): string {
    const { id, ...rest } = location;
    const name = `locations/${id}`;
    this.locations.set(name, { name, ...rest });
    this.accountLocations.get(account)?.push(name);
    this.reviews.set(id, this.reviews.get(id) ?? []);
    return name;
  }

  /** Adds (or, same id, replaces) a review of a location (its bare id). */
  addReview(locationId: string, review: BusinessReview): void {
    const list = this.reviews.get(locationId) ?? [];
    const at = list.findIndex((r) => r.reviewId === review.reviewId);
    if (at >= 0) list[at] = review;
    else list.push(review);
    this.reviews.set(locationId, list);
  }

  /** A review as the provider holds it now (its reply included). */
  review(locationId: string, reviewId: string): BusinessReview | undefined {
    return this.reviews.get(locationId)?.find((r) => r.reviewId === reviewId);
  }

  private authorized(req: IncomingMessage): boolean {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    if (!bearer) return false;
    return this.tokens.has(bearer) || Boolean(this.options.oauth?.isLive(bearer));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    this.seen.requests += 1;
    const url = new URL(req.url ?? "/", "http://local");
    if (this.failures.count > 0) {
      this.failures.count -= 1;
      const status = this.failures.status;
      if (status === 429) res.setHeader("retry-after", "1");
      return googleError(
        res,
        status,
        status === 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE",
        status === 429 ? "Quota exceeded." : "The service is currently unavailable.",
      );
    }
    if (!this.authorized(req)) {
      this.seen.unauthenticated += 1;
      return googleError(
        res,
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }
    const path = url.pathname;
    const q = url.searchParams;
    const get = req.method === "GET";
    if (get && path === "/v1/accounts") return this.listAccounts(q, res);
    const locations = /^\/v1\/(accounts\/[^/]+)\/locations$/.exec(path);
    if (get && locations) return this.listLocations(locations[1]!, q, res);
    const location = /^\/v1\/(locations\/[^/]+)$/.exec(path);
    if (get && location) return this.getLocation(location[1]!, q, res);
    const reviews = /^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews$/.exec(path);
    if (get && reviews) return this.listReviews(reviews[1]!, reviews[2]!, q, res);
    const reply = /^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/]+)\/reply$/.exec(path);
    if (reply && req.method === "PUT") return this.putReply(reply[1]!, reply[2]!, reply[3]!, req, res);
    if (reply && req.method === "DELETE") return this.deleteReply(reply[1]!, reply[2]!, reply[3]!, res);
    googleError(res, 404, "NOT_FOUND", `The requested URL ${path} was not found on this server.`);
  }

  private listAccounts(q: URLSearchParams, res: ServerResponse) {
    const page = paginate(this.accounts, q, 20, 20);
    if (!page) return invalidArgument(res, "Invalid page token.");
    json(res, 200, {
      accounts: page.items,
      ...(page.next ? { nextPageToken: page.next } : {}),
    });
  }

  private mask(q: URLSearchParams, res: ServerResponse): string[] | null {
    const raw = q.get("readMask") ?? "";
    this.seen.readMasks.push(raw);
    const fields = raw
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) {
      invalidArgument(res, "Request contains an invalid argument.", "read_mask");
      return null;
    }
    const unknown = fields.find((f) => !LOCATION_FIELDS.has(f.split(".")[0]!));
    if (unknown) {
      invalidArgument(res, `Invalid field mask provided: ${unknown}`, "read_mask");
      return null;
    }
    return fields.map((f) => f.split(".")[0]!);
  }

  private listLocations(account: string, q: URLSearchParams, res: ServerResponse) {
    const names = this.accountLocations.get(account);
    if (!names) return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
    const fields = this.mask(q, res);
    if (!fields) return;
    const page = paginate(names, q, 10, 100);
    if (!page) return invalidArgument(res, "Invalid page token.");
    json(res, 200, {
      locations: page.items.map((name) => pick(this.locations.get(name)!, fields)),
      totalSize: names.length,
      ...(page.next ? { nextPageToken: page.next } : {}),
    });
  }

  private getLocation(name: string, q: URLSearchParams, res: ServerResponse) {
    const location = this.locations.get(name);
    if (!location) return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
    const fields = this.mask(q, res);
    if (!fields) return;
    json(res, 200, pick(location, fields));
  }

  /** The location `locations/{l}` when account `a` holds it. */
  private owned(account: string, location: string): BusinessReview[] | undefined {
    const names = this.accountLocations.get(`accounts/${account}`);
    return names?.includes(`locations/${location}`) ? this.reviews.get(location) : undefined;
  }

  private listReviews(account: string, location: string, q: URLSearchParams, res: ServerResponse) {
    this.seen.reviewLists += 1;
    const all = this.owned(account, location);
    if (!all) return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
    const orderBy = (q.get("orderBy") ?? "updateTime desc").trim();
    const sorted = [...all];
    if (orderBy === "updateTime desc") sorted.sort((a, b) => b.updateTime.localeCompare(a.updateTime));
    else if (orderBy === "rating") sorted.sort((a, b) => STARS[a.starRating] - STARS[b.starRating]);
    else if (orderBy === "rating desc") sorted.sort((a, b) => STARS[b.starRating] - STARS[a.starRating]);
    else return invalidArgument(res, `Invalid orderBy: ${orderBy}`, "order_by");
    const page = paginate(sorted, q, 50, 50);
    if (!page) return invalidArgument(res, "Invalid page token.");
    const total = all.length;
    const average = total === 0 ? 0 : all.reduce((sum, r) => sum + STARS[r.starRating], 0) / total;
    json(res, 200, {
      reviews: page.items.map((review) => ({
        name: `accounts/${account}/locations/${location}/reviews/${review.reviewId}`,
        ...review,
      })),
      averageRating: Math.round(average * 10) / 10,
      totalReviewCount: total,
      ...(page.next ? { nextPageToken: page.next } : {}),
    });
  }

  private async putReply(
    account: string,
    location: string,
    reviewId: string,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    const review = this.owned(account, location)?.find((r) => r.reviewId === reviewId);
    if (!review) return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
    let body: { comment?: unknown };
    try {
      body = JSON.parse(await textOf(req)) as { comment?: unknown };
    } catch {
      return invalidArgument(res, "Invalid JSON payload received.");
    }
    const comment = typeof body?.comment === "string" ? body.comment : "";
    if (comment.trim() === "") return invalidArgument(res, "Request contains an invalid argument.", "comment");
    // Google caps a reply at 4096 bytes.
    if (Buffer.byteLength(comment) > 4096) return invalidArgument(res, "The reply is too long.", "comment");
    review.reviewReply = { comment, updateTime: new Date().toISOString() };
    this.seen.repliesPut.push({ review: reviewId, comment });
    json(res, 200, review.reviewReply);
  }

  private deleteReply(account: string, location: string, reviewId: string, res: ServerResponse) {
    const review = this.owned(account, location)?.find((r) => r.reviewId === reviewId);
    if (!review) return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
    delete review.reviewReply;
    this.seen.repliesDeleted.push(reviewId);
    json(res, 200, {});
  }
}

/** A page of `items` from `pageToken` (an issued offset); null for a token that was not issued. */
function paginate<T>(
  items: readonly T[],
  q: URLSearchParams,
  defaultSize: number,
  maxSize: number,
): { items: T[]; next: string } | null {
  const asked = Number(q.get("pageSize") ?? "");
  const size = Number.isInteger(asked) && asked > 0 ? Math.min(asked, maxSize) : defaultSize;
  const token = q.get("pageToken") ?? "";
  let start = 0;
  if (token) {
    const decoded = /^o:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
    if (!decoded) return null;
    start = Number(decoded[1]);
  }
  const end = start + size;
  return {
    items: items.slice(start, end),
    next: end < items.length ? Buffer.from(`o:${end}`).toString("base64url") : "",
  };
}

function pick(location: BusinessLocation, fields: string[]): Partial<BusinessLocation> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (location as unknown as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body));
}

function googleError(res: ServerResponse, code: number, status: string, message: string, details?: unknown[]): void {
  json(res, code, { error: { code, message, status, ...(details ? { details } : {}) } });
}

function invalidArgument(res: ServerResponse, message: string, field?: string): void {
  googleError(
    res,
    400,
    "INVALID_ARGUMENT",
    message,
    field
      ? [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description: message }] }]
      : undefined,
  );
}

async function textOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}
