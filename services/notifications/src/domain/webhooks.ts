// Outgoing webhooks, the pure part: which events become which payloads, the secret's form, the
// retry schedule, a delivery's status from its attempts, and when a failing endpoint is turned off.
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookPayload,
} from "@crafter/validation";

/** The most endpoints (Zapier's subscriptions included) a project may have. */
export const MAX_ENDPOINTS_PER_PROJECT = 20;

/** The Standard Webhooks secret prefix; the rest is base64 of the key's bytes. */
export const SECRET_PREFIX = "whsec_";

/** A signing secret from 32 random bytes (Standard Webhooks: 24 to 64 bytes, base64, `whsec_` prefix). */
export function secretOf(bytes: Uint8Array): string {
  if (bytes.length < 24 || bytes.length > 64) throw new Error("a webhook secret has 24 to 64 bytes");
  return SECRET_PREFIX + Buffer.from(bytes).toString("base64");
}

/** What the dashboard shows of a secret after its creation: the prefix and its last 4 characters. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

/**
 * Waits before each retry after a failed attempt (ms): 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h —
 * eight attempts over 23 h 40 min, the shape of the Standard Webhooks reference schedule within a day.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000,
];

/** Attempts per delivery (the first one and every retry). */
export const DELIVERY_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/**
 * The wait before attempt `next` (2-based: the first retry is attempt 2), scaled (tests shorten
 * the day to seconds); null when `next` is past the last attempt.
 */
export function retryDelayMs(next: number, scale = 1): number | null {
  const wait = RETRY_SCHEDULE_MS[next - 2];
  return wait === undefined ? null : Math.max(0, Math.round(wait * scale));
}

/** The webhook-id of an event: the same for every endpoint, attempt and resend of it. */
export function messageIdOf(eventId: string): string {
  return `msg_${eventId.replace(/[^A-Za-z0-9_-]/g, "")}`;
}

/**
 * One delivery per endpoint and event: its id is derived from both (so a redelivered event finds
 * it taken), short enough for a path id (`wd_` + 32 hex characters).
 */
export function deliveryIdOf(endpointId: string, messageId: string): string {
  return `wd_${createHash("sha256").update(`${endpointId}\n${messageId}`).digest("hex").slice(0, 32)}`;
}

/** An event a project's endpoints may receive: its type, project and data. */
export interface WebhookEvent<T extends WebhookEventType | "webhook.test" = WebhookEventType | "webhook.test"> {
  type: T;
  projectId: string;
  data: WebhookEventData<T>;
}

/** The JSON body of a delivery (`{ type, timestamp, data }`), serialised once: the signature covers these bytes. */
export function payloadOf(event: WebhookEvent, at: Date): string {
  const payload: WebhookPayload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  return JSON.stringify(payload);
}

/** Whether an endpoint subscribed to `events` gets an event of `type`. */
export function wants(events: readonly string[], type: string): boolean {
  return events.includes(type);
}

/** The subscribable types among `events`, without repeats, in the catalogue's order. */
export function cleanEvents(events: readonly string[]): WebhookEventType[] {
  const chosen = new Set(events);
  return WEBHOOK_EVENT_TYPES.filter((type) => chosen.has(type));
}

const LOCAL_NAMES = [/^localhost$/i, /\.localhost$/i, /\.local$/i, /\.internal$/i, /\.home\.arpa$/i];

/**
 * Why a URL cannot be an endpoint, or null when it can: absolute http(s), no credentials, at most
 * 2000 characters, and not a literal private address or local name unless pinned (`pinned(host)`:
 * the test stack's `*.crafter.test`). Names are checked again at every delivery, on the address
 * actually connected to (the kit's outbound rules), so a name that resolves privately is refused then.
 */
export function endpointUrlProblem(
  raw: string,
  isPublic: (address: string) => boolean,
  pinned: (host: string) => boolean,
): string | null {
  if (raw.length > 2000) return "A URL has at most 2000 characters.";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter an absolute http:// or https:// URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Enter an http:// or https:// URL.";
  if (url.username || url.password) return "A URL with a user name or password is not accepted.";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (pinned(host)) return null;
  if (isIP(host) && !isPublic(host)) return "Webhooks are not sent to private or local addresses.";
  if (!isIP(host) && (LOCAL_NAMES.some((name) => name.test(host)) || !host.includes(".")))
    return "Webhooks are not sent to local host names.";
  return null;
}

/** One attempt at a delivery, as recorded. */
export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's HTTP status; 0 when it did not answer. */
  responseCode: number;
  error: string;
  at: Date;
  /** The delivery's last scheduled attempt (no retry follows). */
  final: boolean;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** A delivery's log line from its attempts (any order). */
export function deliverySummary(attempts: readonly AttemptOutcome[]): {
  status: DeliveryStatus;
  attempts: number;
  responseCode: number;
  error: string;
  lastAttemptAt: Date | null;
} {
  const sorted = [...attempts].sort((a, b) => a.at.getTime() - b.at.getTime());
  const last = sorted.at(-1);
  const status: DeliveryStatus = sorted.some((a) => a.ok)
    ? "succeeded"
    : sorted.some((a) => a.final)
      ? "failed"
      : "pending";
  return {
    status,
    attempts: sorted.length,
    responseCode: last?.responseCode ?? 0,
    error: last?.ok ? "" : (last?.error ?? ""),
    lastAttemptAt: last?.at ?? null,
  };
}

/** An endpoint's unbroken run of failed attempts (since its last success). */
export interface FailureStreak {
  count: number;
  /** When the run's first failure happened. */
  since: Date;
}

/**
 * Whether an endpoint that just failed again is turned off: after `maxFailures` failed attempts in
 * a row, or when a delivery's last attempt failed and nothing succeeded since that delivery's
 * first attempt (every attempt over the whole retry day failed).
 * @param attempt.firstAttemptAt when the delivery was first tried (null: not known; only the count applies).
 */
export function shouldDisable(
  streak: FailureStreak,
  attempt: { final: boolean; firstAttemptAt: Date | null },
  maxFailures: number,
): boolean {
  if (streak.count >= maxFailures) return true;
  return attempt.final && attempt.firstAttemptAt !== null && streak.since.getTime() <= attempt.firstAttemptAt.getTime();
}

/** A receiver's answer read as success: any 2xx. */
export function succeeded(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The UTC day of an instant (`YYYY-MM-DD`): kept on events, deliveries and attempts so they expire by equality. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The days whose events, deliveries and attempts are removed now: those `keepDays` to
 * `keepDays + lookBackDays` days before today (UTC), oldest last. A sweep that did not run for a
 * while still finds its days within the look-back.
 */
export function expiredDays(now: Date, keepDays: number, lookBackDays = 14): string[] {
  const days: string[] = [];
  for (let back = keepDays + 1; back <= keepDays + lookBackDays; back++)
    days.push(dayOf(new Date(now.getTime() - back * 86_400_000)));
  return days;
}
