import { randomBytes, randomUUID } from "node:crypto";
import {
  appError,
  badRequest,
  type Caller,
  type KeyRing,
  type Logger,
  OutboundError,
  openSecret,
  type ProviderHttp,
  sealSecret,
} from "@crafter/kit";
import { isWebhookEventType, type WebhookEventType } from "@crafter/validation";
import { Webhook } from "standardwebhooks";
import {
  cleanEvents,
  DELIVERY_ATTEMPTS,
  type DeliveryStatus,
  dayOf,
  deliveryIdOf,
  deliverySummary,
  endpointUrlProblem,
  expiredDays,
  type FailureStreak,
  MAX_ENDPOINTS_PER_PROJECT,
  messageIdOf,
  payloadOf,
  retryDelayMs,
  secretHint,
  secretOf,
  shouldDisable,
  succeeded,
  type WebhookEvent,
  wants,
} from "../domain/webhooks";
import type { WebhookDeliveryDoc, WebhookEndpointDoc, WebhookRepository } from "../store/webhook.repository";
import type { SenderProjectsPort } from "./sender";

/** The flag that turns outgoing webhooks and the Zapier integration on (spec §1). */
export const WEBHOOKS_FLAG = "zapier_integration";

/** A delivery job: one attempt (scheduled retries are jobs of their own). */
export interface DeliveryJob {
  deliveryId: string;
  /** 1-based; a scheduled attempt's number, 1 for a manual one. */
  attempt: number;
  /** A test event or a resend: one attempt, no retries, not counted against the endpoint. */
  manual: boolean;
}

/** The BullMQ queue of delivery attempts. */
export interface DeliveryQueue {
  /** Adds the job unless one with `jobId` exists; runs it after `delayMs`. */
  enqueue(job: DeliveryJob, jobId: string, delayMs: number): Promise<void>;
}

/** Each endpoint's run of failed attempts since its last success (Redis: losing it only restarts the count). */
export interface FailureStreaks {
  /** Counts a failed attempt. @returns the run, this failure included. */
  failed(endpointId: string, at: Date): Promise<FailureStreak>;
  /** A success (or the endpoint turned on again) ends the run. */
  clear(endpointId: string): Promise<void>;
}

/** What outgoing webhooks need; built once in main.ts. */
export interface WebhookDeps {
  store: WebhookRepository;
  /** Whether the caller's token reaches the project. */
  projects: SenderProjectsPort;
  /** The flags enabled for a user (account's GetFlags). */
  flagsOf: (userId: string) => Promise<readonly string[]>;
  /** SECRETS_KEYS: seals the endpoints' signing secrets; undefined: endpoints cannot be made. */
  keys: KeyRing | undefined;
  /** Deliveries go through the kit's provider HTTP (outbound rules), one try per attempt. */
  http: ProviderHttp;
  queue: DeliveryQueue;
  streaks: FailureStreaks;
  /** The owner's in-app notice when an endpoint is turned off. */
  notify(input: {
    userId: string;
    level: "warning";
    title: string;
    body: string;
    link: string;
    key: string;
  }): Promise<unknown>;
  /** Whether an address is public (the kit's isPublicAddress), and whether a host is pinned (tests). */
  isPublic(address: string): boolean;
  pinned(host: string): boolean;
  /** Multiplies the retry schedule (1 in production; tests shorten the day to seconds). */
  retryScale: number;
  /** Failed attempts in a row that turn an endpoint off. */
  maxFailures: number;
  logger: Logger;
  now: () => Date;
}

/** An endpoint as the API shows it (never its secret). */
export interface EndpointView {
  endpointId: string;
  url: string;
  events: string[];
  enabled: boolean;
  source: "dashboard" | "zapier";
  secretHint: string;
  disabledReason: string;
  createdAt: string;
  disabledAt: string;
}

/** A delivery's log line. */
export interface DeliveryView {
  deliveryId: string;
  messageId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number;
  error: string;
  createdAt: string;
  lastAttemptAt: string;
  payload: string;
}

function endpointView(doc: WebhookEndpointDoc): EndpointView {
  return {
    endpointId: doc._id,
    url: doc.url,
    events: doc.events,
    enabled: doc.enabled,
    source: doc.source,
    secretHint: doc.secretHint,
    disabledReason: doc.disabledReason,
    createdAt: doc.createdAt.toISOString(),
    disabledAt: doc.disabledAt ? doc.disabledAt.toISOString() : "",
  };
}

async function deliveryView(deps: Pick<WebhookDeps, "store">, doc: WebhookDeliveryDoc): Promise<DeliveryView> {
  const summary = deliverySummary(await deps.store.attemptsOf(doc._id));
  return {
    deliveryId: doc._id,
    messageId: doc.messageId,
    eventType: doc.eventType,
    status: summary.status,
    attempts: summary.attempts,
    responseCode: summary.responseCode,
    error: summary.error,
    createdAt: doc.createdAt.toISOString(),
    lastAttemptAt: summary.lastAttemptAt ? summary.lastAttemptAt.toISOString() : "",
    payload: doc.payload,
  };
}

/** The flag is on for the caller and their token reaches the project. @throws FEATURE_DISABLED, NOT_FOUND. */
async function mustManage(deps: WebhookDeps, caller: Caller, projectId: string): Promise<void> {
  const [flags, project] = await Promise.all([deps.flagsOf(caller.userId), deps.projects.project(caller, projectId)]);
  if (!project) throw appError("NOT_FOUND", "No such project.");
  if (!flags.includes(WEBHOOKS_FLAG)) throw appError("FEATURE_DISABLED");
}

async function endpointOf(deps: WebhookDeps, projectId: string, endpointId: string): Promise<WebhookEndpointDoc> {
  const doc = await deps.store.endpoint(endpointId);
  if (!doc || doc.projectId !== projectId) throw appError("NOT_FOUND", "No such webhook endpoint.");
  return doc;
}

/** The project's endpoints, newest first. @throws FEATURE_DISABLED, NOT_FOUND. */
export async function listEndpoints(deps: WebhookDeps, caller: Caller, projectId: string): Promise<EndpointView[]> {
  await mustManage(deps, caller, projectId);
  return (await deps.store.endpointsOf(projectId)).map(endpointView);
}

/**
 * Adds an endpoint with a new signing secret (32 random bytes, `whsec_` + base64), answered this once.
 * @throws CR_ERR_BAD_REQUEST (url, events), CONFLICT (MAX_ENDPOINTS_PER_PROJECT), UNAVAILABLE (no
 *   SECRETS_KEYS), FEATURE_DISABLED, NOT_FOUND.
 */
export async function createEndpoint(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; url: string; events: readonly string[]; source?: "dashboard" | "zapier" },
): Promise<{ endpoint: EndpointView; secret: string }> {
  await mustManage(deps, caller, input.projectId);
  const url = input.url.trim();
  const urlProblem = endpointUrlProblem(url, deps.isPublic, deps.pinned);
  const field = input.source === "zapier" ? "targetUrl" : "url";
  if (urlProblem) throw badRequest({ [field]: urlProblem });
  const unknown = input.events.find((event) => !isWebhookEventType(event));
  if (unknown !== undefined) throw badRequest({ events: `Unknown event: ${unknown}` });
  const events = cleanEvents(input.events);
  if (events.length === 0) throw badRequest({ events: "Choose at least one event" });
  if (!deps.keys) throw appError("UNAVAILABLE", "Webhooks are not configured on this server (SECRETS_KEYS).");
  const existing = await deps.store.endpointsOf(input.projectId);
  if (existing.length >= MAX_ENDPOINTS_PER_PROJECT)
    throw appError("CONFLICT", `A project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints.`);
  const id = `we_${randomUUID().replaceAll("-", "")}`;
  const secret = secretOf(randomBytes(32));
  const doc: WebhookEndpointDoc = {
    _id: id,
    projectId: input.projectId,
    ownerUserId: caller.userId,
    url,
    events,
    source: input.source ?? "dashboard",
    secretSealed: sealSecret(deps.keys, secret, id),
    secretHint: secretHint(secret),
    enabled: true,
    disabledReason: "",
    disabledAt: null,
    createdAt: deps.now(),
  };
  await deps.store.addEndpoint(doc);
  return { endpoint: endpointView(doc), secret };
}

/**
 * Turns an endpoint on or off (on again: its failure run starts over), and changes its events when
 * `events` is not empty. @throws NOT_FOUND, CR_ERR_BAD_REQUEST, FEATURE_DISABLED.
 */
export async function updateEndpoint(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; endpointId: string; enabled: boolean; events: readonly string[] },
): Promise<EndpointView> {
  await mustManage(deps, caller, input.projectId);
  const doc = await endpointOf(deps, input.projectId, input.endpointId);
  if (input.events.length > 0) {
    const unknown = input.events.find((event) => !isWebhookEventType(event));
    if (unknown !== undefined) throw badRequest({ events: `Unknown event: ${unknown}` });
    await deps.store.setEvents(doc._id, cleanEvents(input.events));
  }
  if (input.enabled !== doc.enabled) {
    await deps.store.setEnabled(doc._id, input.enabled, "owner", deps.now());
    if (input.enabled) await deps.streaks.clear(doc._id);
  }
  return endpointView((await deps.store.endpoint(doc._id)) ?? doc);
}

/** Deletes an endpoint; pending retries find it gone and stop. @throws NOT_FOUND, FEATURE_DISABLED. */
export async function deleteEndpoint(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; endpointId: string },
): Promise<void> {
  await mustManage(deps, caller, input.projectId);
  const doc = await endpointOf(deps, input.projectId, input.endpointId);
  await deps.store.removeEndpoint(doc._id);
  await deps.streaks.clear(doc._id);
}

/** Sends a `webhook.test` event to the endpoint now. @throws NOT_FOUND, CONFLICT (disabled), FEATURE_DISABLED. */
export async function sendTest(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; endpointId: string },
): Promise<DeliveryView> {
  await mustManage(deps, caller, input.projectId);
  const endpoint = await endpointOf(deps, input.projectId, input.endpointId);
  if (!endpoint.enabled) throw appError("CONFLICT", "Turn the endpoint on before sending it a test event.");
  const at = deps.now();
  const messageId = messageIdOf(`test_${randomUUID().replaceAll("-", "")}`);
  const event: WebhookEvent<"webhook.test"> = {
    type: "webhook.test",
    projectId: endpoint.projectId,
    data: { projectId: endpoint.projectId, endpointId: endpoint._id, message: "A test event from Crafter." },
  };
  const doc: WebhookDeliveryDoc = {
    _id: deliveryIdOf(endpoint._id, messageId),
    endpointId: endpoint._id,
    projectId: endpoint.projectId,
    messageId,
    eventType: event.type,
    payload: payloadOf(event, at),
    createdAt: at,
    day: dayOf(at),
  };
  await deps.store.addDelivery(doc);
  await deps.queue.enqueue({ deliveryId: doc._id, attempt: 1, manual: true }, `${doc._id}-m1`, 0);
  return deliveryView(deps, doc);
}

/** One page of an endpoint's deliveries, newest first. @throws NOT_FOUND, FEATURE_DISABLED. */
export async function listDeliveries(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; endpointId: string; page: number; pageSize: number },
): Promise<{ deliveries: DeliveryView[]; count: number; currentPage: number; totalPages: number }> {
  await mustManage(deps, caller, input.projectId);
  const endpoint = await endpointOf(deps, input.projectId, input.endpointId);
  const pageSize = Math.min(100, Math.max(1, input.pageSize || 20));
  const page = Math.max(1, input.page || 1);
  const { count, items } = await deps.store.deliveriesOf(endpoint._id, (page - 1) * pageSize, pageSize);
  return {
    deliveries: await Promise.all(items.map((doc) => deliveryView(deps, doc))),
    count,
    currentPage: page,
    totalPages: Math.max(1, Math.ceil(count / pageSize)),
  };
}

/**
 * Sends a delivery again now: the same body and webhook-id, a new timestamp and signature; one
 * attempt. @throws NOT_FOUND, CONFLICT (disabled), FEATURE_DISABLED.
 */
export async function resendDelivery(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; endpointId: string; deliveryId: string },
): Promise<DeliveryView> {
  await mustManage(deps, caller, input.projectId);
  const endpoint = await endpointOf(deps, input.projectId, input.endpointId);
  const doc = await deps.store.delivery(input.deliveryId);
  if (!doc || doc.endpointId !== endpoint._id) throw appError("NOT_FOUND", "No such delivery.");
  if (!endpoint.enabled) throw appError("CONFLICT", "Turn the endpoint on before resending to it.");
  await deps.queue.enqueue(
    { deliveryId: doc._id, attempt: 1, manual: true },
    `${doc._id}-r${deps.now().getTime()}${randomUUID().slice(0, 8)}`,
    0,
  );
  return deliveryView(deps, doc);
}

/** Zapier's REST Hook subscribe: an endpoint for one event. @throws as createEndpoint. */
export async function subscribeZapierHook(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; targetUrl: string; event: string },
): Promise<{ id: string; event: string; targetUrl: string }> {
  const { endpoint } = await createEndpoint(deps, caller, {
    projectId: input.projectId,
    url: input.targetUrl,
    events: [input.event],
    source: "zapier",
  });
  return { id: endpoint.endpointId, event: input.event, targetUrl: endpoint.url };
}

/** Zapier's REST Hook unsubscribe. @throws NOT_FOUND (also for an endpoint not made by Zapier). */
export async function unsubscribeZapierHook(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; id: string },
): Promise<void> {
  await mustManage(deps, caller, input.projectId);
  const doc = await endpointOf(deps, input.projectId, input.id);
  if (doc.source !== "zapier") throw appError("NOT_FOUND", "No such Zapier subscription.");
  await deleteEndpoint(deps, caller, { projectId: input.projectId, endpointId: doc._id });
}

/** The polling fallback: the project's latest events of one type (at most 50), newest first. */
export async function recentEvents(
  deps: WebhookDeps,
  caller: Caller,
  input: { projectId: string; event: string },
): Promise<Array<{ id: string; type: string; timestamp: string; data: string }>> {
  await mustManage(deps, caller, input.projectId);
  if (!isWebhookEventType(input.event)) throw badRequest({ event: `Unknown event: ${input.event}` });
  const docs = await deps.store.recentEvents(input.projectId, input.event, 50);
  return docs.map((doc) => {
    const payload = JSON.parse(doc.payload) as { timestamp: string; data: unknown };
    return { id: doc._id, type: doc.type, timestamp: payload.timestamp, data: JSON.stringify(payload.data) };
  });
}

/**
 * A project's event (from Kafka): kept for the polling fallback and, for each enabled endpoint that
 * chose its type, one delivery queued. Idempotent by `eventId`: a redelivered event makes no second
 * delivery. Events of projects that never had an endpoint are not kept.
 */
export async function recordWebhookEvent(
  deps: Pick<WebhookDeps, "store" | "queue">,
  eventId: string,
  occurredAt: Date,
  event: WebhookEvent<WebhookEventType>,
): Promise<void> {
  if (!event.projectId || !(await deps.store.hasEndpoints(event.projectId))) return;
  const messageId = messageIdOf(eventId);
  const payload = payloadOf(event, occurredAt);
  await deps.store.recordEvent({
    _id: messageId,
    projectId: event.projectId,
    type: event.type,
    payload,
    createdAt: occurredAt,
    day: dayOf(occurredAt),
  });
  const endpoints = (await deps.store.endpointsOf(event.projectId)).filter(
    (endpoint) => endpoint.enabled && wants(endpoint.events, event.type),
  );
  for (const endpoint of endpoints) {
    const deliveryId = deliveryIdOf(endpoint._id, messageId);
    const added = await deps.store.addDelivery({
      _id: deliveryId,
      endpointId: endpoint._id,
      projectId: event.projectId,
      messageId,
      eventType: event.type,
      payload,
      createdAt: occurredAt,
      day: dayOf(occurredAt),
    });
    // Made before and already tried: a redelivery. Made but never tried (a crash in between): queue it.
    if (!added && (await deps.store.attemptsOf(deliveryId)).length > 0) continue;
    await deps.queue.enqueue({ deliveryId, attempt: 1, manual: false }, `${deliveryId}-a1`, 0);
  }
}

/** One signed POST of a delivery to its endpoint. */
async function post(
  deps: Pick<WebhookDeps, "http" | "keys" | "now">,
  endpoint: WebhookEndpointDoc,
  delivery: WebhookDeliveryDoc,
): Promise<{ ok: boolean; responseCode: number; error: string }> {
  if (!deps.keys) return { ok: false, responseCode: 0, error: "Webhooks are not configured on this server." };
  const secret = openSecret(deps.keys, endpoint.secretSealed, endpoint._id);
  const at = deps.now();
  const signature = new Webhook(secret).sign(delivery.messageId, at, delivery.payload);
  try {
    const answer = await deps.http.call(endpoint.url, {
      method: "POST",
      bytes: new TextEncoder().encode(delivery.payload),
      headers: {
        "content-type": "application/json",
        "user-agent": "Crafter-Webhooks/1.0",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      },
    });
    const ok = succeeded(answer.status);
    return { ok, responseCode: answer.status, error: ok ? "" : `The receiver answered HTTP ${answer.status}.` };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const why =
      error.reason === "blocked-address"
        ? "Refused: the URL leads to a private or local address."
        : error.reason === "timeout"
          ? "The receiver did not answer in time."
          : error.reason === "invalid-url"
            ? "The URL cannot be fetched."
            : "The receiver could not be reached.";
    return { ok: false, responseCode: 0, error: why };
  }
}

/**
 * Runs one attempt of a delivery (the queue's worker): posts it signed, queues the next attempt
 * on the retry schedule when it failed (none after the last, nor after a manual one), records the
 * attempt, and turns the endpoint off, with a notice to its owner, when it keeps failing.
 * A delivery whose endpoint was deleted is dropped; one whose endpoint is off is recorded as failed.
 */
export async function runDeliveryAttempt(deps: WebhookDeps, job: DeliveryJob): Promise<void> {
  const delivery = await deps.store.delivery(job.deliveryId);
  if (!delivery) return;
  const endpoint = await deps.store.endpoint(delivery.endpointId);
  if (!endpoint) return;
  const final = job.manual || job.attempt >= DELIVERY_ATTEMPTS;
  const attemptId = job.manual
    ? `${delivery._id}-m${deps.now().getTime()}${randomUUID().slice(0, 8)}`
    : `${delivery._id}-a${job.attempt}`;
  if (!endpoint.enabled && !job.manual) {
    await deps.store.addAttempt({
      _id: attemptId,
      deliveryId: delivery._id,
      endpointId: endpoint._id,
      at: deps.now(),
      ok: false,
      responseCode: 0,
      error: "Not sent: the endpoint is turned off.",
      final: true,
      manual: false,
      day: delivery.day || dayOf(delivery.createdAt),
    });
    return;
  }
  const outcome = await post(deps, endpoint, delivery);
  const at = deps.now();
  if (!outcome.ok && !final) {
    const next = job.attempt + 1;
    await deps.queue.enqueue(
      { deliveryId: delivery._id, attempt: next, manual: false },
      `${delivery._id}-a${next}`,
      retryDelayMs(next, deps.retryScale) ?? 0,
    );
  }
  await deps.store.addAttempt({
    _id: attemptId,
    deliveryId: delivery._id,
    endpointId: endpoint._id,
    at,
    ...outcome,
    final,
    manual: job.manual,
    day: delivery.day || dayOf(delivery.createdAt),
  });
  if (outcome.ok) {
    await deps.streaks.clear(endpoint._id);
    return;
  }
  if (job.manual) return;
  const streak = await deps.streaks.failed(endpoint._id, at);
  const firstAttemptAt = final
    ? ((await deps.store.attemptsOf(delivery._id))
        .filter((attempt) => !attempt.manual)
        .map((attempt) => attempt.at)
        .sort((a, b) => a.getTime() - b.getTime())[0] ?? null)
    : null;
  if (!shouldDisable(streak, { final, firstAttemptAt }, deps.maxFailures)) return;
  await deps.store.setEnabled(endpoint._id, false, "failing", at);
  deps.logger.warn(
    { endpointId: endpoint._id, failures: streak.count },
    "webhook endpoint turned off: it kept failing",
  );
  await deps.notify({
    userId: endpoint.ownerUserId,
    level: "warning",
    title: "A webhook endpoint was turned off",
    body: `Deliveries to ${endpoint.url} kept failing (${streak.count} failed attempts in a row since ${streak.since.toISOString()}). Fix the receiver, then turn the endpoint on again in Settings › Integrations.`,
    link: "/app/settings/integrations",
    key: `webhook-disabled:${endpoint._id}:${streak.since.getTime()}`,
  });
}

/**
 * Removes the events, deliveries and attempts of the days past `keepDays` (by their `day`, an
 * equality FerretDB pushes down), for the periodic sweep. @returns the documents removed.
 */
export async function sweepWebhookLog(deps: Pick<WebhookDeps, "store" | "now">, keepDays: number): Promise<number> {
  let removed = 0;
  for (const day of expiredDays(deps.now(), keepDays)) removed += await deps.store.removeDay(day);
  return removed;
}
