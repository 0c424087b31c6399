/**
 * Calls to third-party providers' HTTP APIs (OAuth endpoints, Graph API, Content Posting API, Admin
 * GraphQL, SendGrid…) through the outbound module, with their rate-limit answers honoured.
 */
import { outboundFetch } from "./outbound";

/**
 * How long a `Retry-After` header asks to wait (RFC 9110 section 10.2.3: seconds or an HTTP date),
 * in ms, capped at `maxMs`; null when absent or unreadable.
 */
export function retryAfterMs(header: string | null | undefined, now: Date, maxMs: number): number | null {
  if (!header) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now.getTime();
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(0, ms), maxMs);
}

/** Graph API error codes that mean "throttled" rather than "refused" (Meta's rate-limiting docs). */
const META_THROTTLE_CODES = new Set([4, 17, 32, 613, 80001, 80002, 80004, 80005, 80006, 80008, 80014]);

/**
 * How long Meta asks to wait, in ms, from its usage headers and throttling errors, which it sends
 * with 400 or 403 rather than 429: `X-Business-Use-Case-Usage` (per business, its
 * `estimated_time_to_regain_access` in minutes), `X-App-Usage` / `X-Ad-Account-Usage` (percentages;
 * 100 means throttled, wait a minute), or an error whose code is a throttling one. Null when the
 * answer is not throttled.
 */
export function metaThrottleMs(headers: { get(name: string): string | null }, json: unknown): number | null {
  let wait: number | null = null;
  const more = (ms: number) => {
    wait = Math.max(wait ?? 0, ms);
  };
  const parse = (name: string): unknown => {
    const text = headers.get(name);
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  const business = parse("x-business-use-case-usage");
  if (business && typeof business === "object") {
    for (const entries of Object.values(business as Record<string, unknown>)) {
      for (const entry of Array.isArray(entries) ? entries : []) {
        const minutes = Number((entry as Record<string, unknown>)?.estimated_time_to_regain_access);
        if (Number.isFinite(minutes) && minutes > 0) more(minutes * 60_000);
      }
    }
  }
  for (const name of ["x-app-usage", "x-ad-account-usage"]) {
    const usage = parse(name);
    if (usage && typeof usage === "object") {
      const values = Object.values(usage as Record<string, unknown>).map(Number);
      if (values.some((value) => Number.isFinite(value) && value >= 100)) more(60_000);
    }
  }
  const error = (json as { error?: { code?: unknown } } | null)?.error;
  if (error && typeof error === "object" && META_THROTTLE_CODES.has(Number(error.code))) more(60_000);
  return wait;
}

/** A provider's answer: its status, its JSON body (null when not JSON) and its headers. */
export interface ProviderAnswer {
  status: number;
  json: unknown;
  headers: Headers;
}

/**
 * One request to a provider. At most one body: `form` (application/x-www-form-urlencoded text),
 * `json` (serialised as JSON) or `bytes` (with its own content-type in `headers`).
 */
export interface ProviderRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  form?: string;
  json?: unknown;
  bytes?: Uint8Array;
  /** Sent as `Authorization: Bearer …`. */
  bearer?: string;
  /** More headers (e.g. `X-Shopify-Access-Token`, `Content-Range`). */
  headers?: Record<string, string>;
}

/** Calls to a provider's HTTP API. */
export interface ProviderHttp {
  /**
   * @returns the provider's answer, whatever its status, once it is not 429, 5xx or a Meta
   *   throttling answer, or after the last try.
   * @throws OutboundError when the provider cannot be reached (timeout, network, blocked address).
   */
  call(url: string, init: ProviderRequest): Promise<ProviderAnswer>;
}

export interface ProviderHttpOptions {
  timeoutMs: number;
  /** Host pins (INTEGRATIONS_RESOLVE); a pinned host may be private. */
  pins: Readonly<Record<string, string>>;
  /** Bytes of an answer read at most (default 256 KiB); a longer one reads as not JSON. */
  maxBytes?: number;
  /** Tries per call (the first one included). */
  attempts?: number;
  /** First backoff after a 5xx, in ms; doubled per try. A 429's Retry-After wins when given. */
  backoffMs?: number;
  /** Longest wait honoured from a Retry-After, in ms; a longer one ends the retries. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

/**
 * Provider calls through the outbound module (SSRF rules, one time limit, a size cap), retried
 * on 429 (after its Retry-After), Meta's throttling answers (after the wait its usage headers name)
 * and 5xx (exponential backoff), at most `attempts` times; a wait longer than `maxWaitMs` is not
 * waited: the answer is returned for the caller to report.
 */
export function providerHttp(options: ProviderHttpOptions): ProviderHttp {
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => new Date());
  return {
    async call(url, init) {
      for (let attempt = 1; ; attempt++) {
        const headers: Record<string, string> = { accept: "application/json" };
        let body: string | Uint8Array | undefined;
        if (init.form !== undefined) {
          headers["content-type"] = "application/x-www-form-urlencoded";
          body = init.form;
        } else if (init.json !== undefined) {
          headers["content-type"] = "application/json; charset=utf-8";
          body = JSON.stringify(init.json);
        } else if (init.bytes !== undefined) {
          body = init.bytes;
        }
        if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
        Object.assign(headers, init.headers);
        const response = await outboundFetch(url, {
          timeoutMs: options.timeoutMs,
          maxBytes: options.maxBytes ?? 256 * 1024,
          maxRedirects: 0,
          pins: options.pins,
          method: init.method,
          headers,
          ...(body !== undefined ? { body } : {}),
        });
        let json: unknown = null;
        try {
          json = response.truncated ? null : JSON.parse(new TextDecoder().decode(response.body));
        } catch {
          json = null;
        }
        const answer = { status: response.status, json, headers: response.headers };
        // Meta throttles with 400/403 and its usage headers; every other provider with 429.
        const throttled = response.status >= 400 ? metaThrottleMs(response.headers, json) : null;
        const retryable = response.status === 429 || response.status >= 500 || throttled !== null;
        if (!retryable || attempt >= attempts) return answer;
        const asked = retryAfterMs(response.headers.get("retry-after"), now(), Number.POSITIVE_INFINITY) ?? throttled;
        if (asked !== null && asked > maxWaitMs) return answer;
        await sleep(asked ?? backoffMs * 2 ** (attempt - 1));
      }
    },
  };
}
