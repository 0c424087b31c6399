import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceClient, type ProviderHttp, type ServiceCredentials } from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import type { GoogleListing, GoogleReview } from "../domain/google-business";

/**
 * A refusal from a Google API, from its error JSON (`{"error":{"code","message","status"}}`):
 * `httpStatus` 401 (the grant is gone), 403 (no access to the account or location), 404, 400,
 * or 429/5xx once the retries are spent.
 */
export class GoogleApiError extends Error {
  override name = "GoogleApiError";
  constructor(
    readonly httpStatus: number,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** Base URLs of the three Google APIs (a test's local server moves them). */
export interface GoogleBusinessUrls {
  /** Account Management API, https://mybusinessaccountmanagement.googleapis.com */
  accounts: string;
  /** Business Information API, https://mybusinessbusinessinformation.googleapis.com */
  information: string;
  /** My Business API v4 (reviews), https://mybusiness.googleapis.com */
  reviews: string;
}

export interface GoogleAccount {
  name: string;
  accountName?: string;
}

export interface ReviewsPage {
  reviews: GoogleReview[];
  averageRating: number;
  totalReviewCount: number;
  nextPageToken: string;
}

/** The Google Business Profile calls Crafter makes, each with a connection's access token. */
export interface GoogleBusinessApi {
  /** One page of `GET /v1/accounts`. */
  accounts(token: string, pageToken: string): Promise<{ accounts: GoogleAccount[]; nextPageToken: string }>;
  /** One page of `GET /v1/{account}/locations?readMask=…`. */
  locations(
    token: string,
    account: string,
    readMask: string,
    pageToken: string,
  ): Promise<{ locations: GoogleListing[]; nextPageToken: string }>;
  /** `GET /v1/{location}?readMask=…`. */
  location(token: string, location: string, readMask: string): Promise<GoogleListing>;
  /** One page (50) of `GET /v4/{account}/{location}/reviews`, newest first. */
  reviews(token: string, account: string, location: string, pageToken: string): Promise<ReviewsPage>;
  /** `PUT /v4/{account}/{location}/reviews/{id}/reply`. @returns the reply's updateTime. */
  putReply(token: string, account: string, location: string, reviewId: string, comment: string): Promise<Date | null>;
  /** `DELETE /v4/{account}/{location}/reviews/{id}/reply`. */
  deleteReply(token: string, account: string, location: string, reviewId: string): Promise<void>;
}

const bare = (name: string, prefix: string) => name.replace(new RegExp(`^${prefix}/`), "");
const seg = (text: string) => encodeURIComponent(text);
/** `accounts/1/locations/2` from `accounts/1` and `locations/2`, each id path-escaped. */
const locationPath = (account: string, location: string) =>
  `accounts/${seg(bare(account, "accounts"))}/locations/${seg(bare(location, "locations"))}`;

/** The Google Business Profile APIs through the kit's providerHttp (429/5xx retried with backoff). */
export function googleBusinessApi(http: ProviderHttp, urls: GoogleBusinessUrls): GoogleBusinessApi {
  const call = async (
    url: string,
    token: string,
    method: "GET" | "PUT" | "DELETE" = "GET",
    json?: unknown,
  ): Promise<Record<string, unknown>> => {
    const answer = await http.call(url, { method, bearer: token, ...(json !== undefined ? { json } : {}) });
    const body = (answer.json && typeof answer.json === "object" ? answer.json : {}) as Record<string, unknown>;
    if (answer.status >= 200 && answer.status < 300) return body;
    const error = (body.error ?? {}) as { message?: unknown; status?: unknown };
    throw new GoogleApiError(
      answer.status,
      typeof error.status === "string" ? error.status : "",
      typeof error.message === "string" ? error.message : `Google answered ${answer.status}`,
    );
  };
  const query = (params: Record<string, string>) => {
    const search = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ""));
    const text = search.toString();
    return text ? `?${text}` : "";
  };
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const list = <T>(value: unknown) => (Array.isArray(value) ? (value as T[]) : []);
  return {
    async accounts(token, pageToken) {
      const body = await call(`${urls.accounts}/v1/accounts${query({ pageSize: "20", pageToken })}`, token);
      return { accounts: list<GoogleAccount>(body.accounts), nextPageToken: text(body.nextPageToken) };
    },
    async locations(token, account, readMask, pageToken) {
      const body = await call(
        `${urls.information}/v1/accounts/${seg(bare(account, "accounts"))}/locations${query({ readMask, pageSize: "100", pageToken })}`,
        token,
      );
      return { locations: list<GoogleListing>(body.locations), nextPageToken: text(body.nextPageToken) };
    },
    async location(token, location, readMask) {
      return call(
        `${urls.information}/v1/locations/${seg(bare(location, "locations"))}${query({ readMask })}`,
        token,
      ) as Promise<GoogleListing>;
    },
    async reviews(token, account, location, pageToken) {
      const body = await call(
        `${urls.reviews}/v4/${locationPath(account, location)}/reviews${query({ pageSize: "50", pageToken })}`,
        token,
      );
      return {
        reviews: list<GoogleReview>(body.reviews),
        averageRating: typeof body.averageRating === "number" ? body.averageRating : 0,
        totalReviewCount: typeof body.totalReviewCount === "number" ? body.totalReviewCount : 0,
        nextPageToken: text(body.nextPageToken),
      };
    },
    async putReply(token, account, location, reviewId, comment) {
      const body = await call(
        `${urls.reviews}/v4/${locationPath(account, location)}/reviews/${seg(reviewId)}/reply`,
        token,
        "PUT",
        { comment },
      );
      const at = text(body.updateTime) ? new Date(text(body.updateTime)) : null;
      return at && !Number.isNaN(at.getTime()) ? at : null;
    },
    async deleteReply(token, account, location, reviewId) {
      await call(
        `${urls.reviews}/v4/${locationPath(account, location)}/reviews/${seg(reviewId)}/reply`,
        token,
        "DELETE",
      );
    },
  };
}

/** Why a connection gives no token: not connected, or it needs reconnecting. */
export class NoConnection extends Error {
  override name = "NoConnection";
  constructor(readonly state: "not_connected" | "needs_reconnecting") {
    super(
      state === "not_connected"
        ? "Google Business Profile is not connected."
        : "Google Business Profile needs reconnecting.",
    );
  }
}

/** A project's `google_business` access token from the account service (which refreshes it). */
export interface BusinessTokens {
  /** @throws NoConnection; ConnectError UNAVAILABLE when the account service or Google cannot answer. */
  token(projectId: string): Promise<string>;
}

/** Account's IntegrationsService.GetAccessToken with the projects service's own token. */
export function businessTokens(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): BusinessTokens {
  const client = createServiceClient(IntegrationsService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async token(projectId) {
      try {
        return (await client.getAccessToken({ projectId, provider: "google_business" })).accessToken;
      } catch (error) {
        if (error instanceof ConnectError && error.code === Code.NotFound) throw new NoConnection("not_connected");
        // CONFLICT (needs reconnecting) travels as one of these codes.
        if (
          error instanceof ConnectError &&
          [Code.AlreadyExists, Code.Aborted, Code.FailedPrecondition].includes(error.code)
        )
          throw new NoConnection("needs_reconnecting");
        throw error;
      }
    },
  };
}
