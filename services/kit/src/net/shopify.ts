/**
 * Shopify's per-shop app grant and its Admin GraphQL API, as its documentation describes them:
 * shop domains, the HMAC of the OAuth callback's query (hex) and of webhooks' raw bodies (base64),
 * and GraphQL calls that wait out the calculated-cost bucket (`THROTTLED`). Used by account (the
 * grant, webhook receipts), projects (products) and contacts (customers).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ProviderHttp } from "./provider-http";

/** The Admin API version every call names (`/admin/api/<version>/graphql.json`). */
export const SHOPIFY_API_VERSION = "2025-01";

/** Where a shop's Admin API is: `https://{shop}` in production; a test's local server keeps `{shop}` as its host name. */
export interface ShopifyEndpoint {
  /** Origin template with `{shop}`, e.g. `https://{shop}` or `http://{shop}:29849`. */
  adminOrigin: string;
  /** The shop's `*.myshopify.com` domain (or the configured suffix's). */
  shop: string;
}

/** `{origin}{path}` of a shop, e.g. `https://their-store.myshopify.com/admin/oauth/access_token`. */
export function shopUrl(endpoint: ShopifyEndpoint, path: string): string {
  return `${endpoint.adminOrigin.replace("{shop}", endpoint.shop).replace(/\/$/, "")}${path}`;
}

/** The message Shopify signs in a redirect's query: every parameter but `hmac`, sorted by name, `k=v` joined by `&`. */
export function shopifyQueryMessage(params: URLSearchParams): string {
  return [...params.entries()]
    .filter(([name]) => name !== "hmac" && name !== "signature")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/** The `hmac` of a query: HMAC-SHA256 of its message, keyed by the app's client secret, in lowercase hex. */
export function shopifyQueryHmac(params: URLSearchParams, secret: string): string {
  return createHmac("sha256", secret).update(shopifyQueryMessage(params)).digest("hex");
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether a redirect's query (the OAuth callback) carries Shopify's `hmac` of its other parameters (timing-safe). */
export function verifyShopifyQuery(params: URLSearchParams, secret: string): boolean {
  const given = params.get("hmac");
  if (!given || !secret || !/^[0-9a-f]{64}$/i.test(given)) return false;
  return sameText(shopifyQueryHmac(params, secret), given.toLowerCase());
}

/** `X-Shopify-Hmac-Sha256` of a webhook: base64 HMAC-SHA256 of the raw body, keyed by the client secret. */
export function shopifyWebhookHmac(body: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

/** Whether a webhook's raw body matches its `X-Shopify-Hmac-Sha256` (timing-safe). */
export function verifyShopifyWebhook(body: Uint8Array | string, header: string, secret: string): boolean {
  if (!header || !secret || header.length > 100) return false;
  return sameText(shopifyWebhookHmac(body, secret), header.trim());
}

/** `extensions.cost` of a GraphQL answer. */
export interface ShopifyCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** An Admin API call that failed: `status` 401/403 (the grant is gone), GraphQL `errors`, or a throttle that did not clear. */
export class ShopifyApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = "ShopifyApiError";
  }
}

/** How long to wait before a query of `requested` points fits in the bucket, in ms (at least 250). */
export function throttleWaitMs(cost: ShopifyCost | undefined, fallbackCost = 50): number {
  const status = cost?.throttleStatus;
  if (!status || !(status.restoreRate > 0)) return 1000;
  const missing = (cost.requestedQueryCost || fallbackCost) - status.currentlyAvailable;
  return Math.max(250, Math.ceil((missing / status.restoreRate) * 1000));
}

export interface ShopifyGraphqlOptions {
  /** Tries when throttled (the first included). */
  attempts?: number;
  /** The longest single wait for the bucket, in ms. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One Admin GraphQL call (`POST /admin/api/2025-01/graphql.json`, `X-Shopify-Access-Token`).
 * A `THROTTLED` answer is retried once the bucket has restored what the query asks for.
 * @returns `data` and the call's cost.
 * @throws ShopifyApiError (HTTP 401/403: `UNAUTHORIZED`; other GraphQL errors; still throttled),
 *   OutboundError (the shop could not be reached).
 */
export async function shopifyGraphql<T>(
  http: ProviderHttp,
  endpoint: ShopifyEndpoint,
  accessToken: string,
  query: string,
  variables: Record<string, unknown> = {},
  options: ShopifyGraphqlOptions = {},
): Promise<{ data: T; cost: ShopifyCost | undefined }> {
  const attempts = options.attempts ?? 6;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const url = shopUrl(endpoint, `/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
  for (let attempt = 1; ; attempt++) {
    const answer = await http.call(url, {
      method: "POST",
      json: { query, variables },
      headers: { "x-shopify-access-token": accessToken },
    });
    const body = (answer.json ?? {}) as {
      data?: T;
      errors?: { message?: string; extensions?: { code?: string } }[] | string;
      extensions?: { cost?: ShopifyCost };
    };
    if (answer.status === 401 || answer.status === 403)
      throw new ShopifyApiError(
        `Shopify refused the access token (HTTP ${answer.status}).`,
        answer.status,
        "UNAUTHORIZED",
      );
    const errors = Array.isArray(body.errors) ? body.errors : body.errors ? [{ message: String(body.errors) }] : [];
    const throttled = errors.some((error) => error.extensions?.code === "THROTTLED") || answer.status === 429;
    if (throttled) {
      if (attempt >= attempts) throw new ShopifyApiError("Shopify kept throttling the query.", 429, "THROTTLED");
      await sleep(Math.min(throttleWaitMs(body.extensions?.cost), options.maxWaitMs ?? 20_000));
      continue;
    }
    if (answer.status !== 200 || errors.length > 0 || !body.data) {
      const first = errors[0];
      throw new ShopifyApiError(
        `Shopify answered ${answer.status}: ${(first?.message ?? "no data").slice(0, 200)}`,
        answer.status,
        first?.extensions?.code ?? "ERROR",
      );
    }
    return { data: body.data, cost: body.extensions?.cost };
  }
}

/** Shopify's global id of a numeric resource id: `gid://shopify/Product/123`. */
export const shopifyGid = (type: string, id: string | number) => `gid://shopify/${type}/${id}`;
