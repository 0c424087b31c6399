import { OutboundError, outboundFetch } from "@crafter/kit";
import { metaThrottleMs, retryAfterMs } from "../domain/connections";

/** A provider's answer: its status, its JSON body (null when not JSON) and its headers. */
export interface ProviderAnswer {
  status: number;
  json: unknown;
  headers: Headers;
}

/** Calls to OAuth providers (token, profile, revocation endpoints). */
export interface ProviderHttp {
  /**
   * @returns the provider's answer, whatever its status, once it is not 429 or 5xx, or after the
   *   last try.
   * @throws OutboundError when the provider cannot be reached (timeout, network, blocked address).
   */
  call(
    url: string,
    init: { method: "GET" | "POST" | "DELETE"; form?: string; bearer?: string },
  ): Promise<ProviderAnswer>;
}

export interface ProviderHttpOptions {
  timeoutMs: number;
  /** Host pins (INTEGRATIONS_RESOLVE); a pinned host may be private. */
  pins: Readonly<Record<string, string>>;
  /** Tries per call (the first one included). */
  attempts?: number;
  /** First backoff after a 5xx, in ms; doubled per try. A 429's Retry-After wins when given. */
  backoffMs?: number;
  /** Longest wait honoured from a Retry-After, in ms; a longer one ends the retries. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

/** Answers are small JSON documents; a bigger one is cut and reads as not JSON. */
const MAX_BYTES = 256 * 1024;

/**
 * Provider calls through the kit's outbound module (SSRF rules, one time limit, a size cap), retried
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
        if (init.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
        if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
        const response = await outboundFetch(url, {
          timeoutMs: options.timeoutMs,
          maxBytes: MAX_BYTES,
          maxRedirects: 0,
          pins: options.pins,
          method: init.method,
          headers,
          ...(init.form !== undefined ? { body: init.form } : {}),
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

export { OutboundError };
