import { hostname } from "node:os";
import { metrics } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import {
  type BusinessFooter,
  type ComposedEmail,
  composeEmail,
  type EmailContact,
  signTrackingToken,
  testSendLinks,
} from "../domain/email-compose";
import type { ResolvedSender } from "../domain/sender";
import type { EmailRef } from "../events/publishers";
import {
  backoffDelays,
  type EmailProvider,
  ProviderError,
  type ProviderMessage,
  pausesSending,
  type SendThrottle,
} from "../mail/providers";
import type { StoredCampaign } from "../store/campaigns.repository";
import { type DeliveryDoc, type FactDoc, FINAL_FACTS } from "../store/email.repository";

export type DeliveryDeps = Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;

/** What one delivery sends: the subject, preheader and HTML with smart values, and the footer's business. */
export interface DeliveryContent {
  subject: string;
  preheader: string;
  html: string;
  business: BusinessFooter;
  /** utm_campaign of the links (the campaign's name); null adds none. */
  utmCampaign: string | null;
}

/** The outcome of one delivery run ("paused": the project's own provider refused its key; the delivery waits). */
export type DeliveryOutcome = "sent" | "failed" | "done-before" | "busy" | "paused";

export function refOf(delivery: DeliveryDoc): EmailRef {
  return {
    userId: delivery.userId,
    projectId: delivery.projectId,
    campaignId: delivery.campaignId,
    automationId: delivery.automationId,
    contactId: delivery.contactId,
    email: delivery.email,
    deliveryId: delivery._id,
  };
}

/** The Message-ID of a delivery: the same for every attempt, so a resend is recognisably the same message. */
export function messageIdOf(deliveryId: string, publicOrigin: string): string {
  return `<${deliveryId}@${new URL(publicOrigin).hostname}>`;
}

/**
 * A campaign's email as one person would get it, untracked, sending and recording nothing: what the
 * campaign preview (a segment member), the test send (an address, no contact) and a reviewer's link
 * (nobody: smart values at their fallbacks) show. Smart values from `contact`, the business's footer,
 * the contact's own links (placeholders without a contact). An empty body composes to "".
 */
export async function composeUntracked(
  deps: DeliveryDeps,
  campaign: Pick<StoredCampaign, "_id" | "userId" | "projectId" | "name" | "subject" | "preheader" | "html">,
  input: {
    /** The render's id (`preview-…`, `test-…`, `review-…`): its links' and Message-ID's key. */
    id: string;
    business: BusinessFooter;
    contact?: { contactId: string; email: string; firstName: string; lastName: string } | null;
    /** A test send's address (no contact). */
    email?: string;
    /** Put before the subject ("[Test] "). */
    subjectPrefix?: string;
  },
): Promise<ComposedEmail> {
  const subject = `${input.subjectPrefix ?? ""}${campaign.subject}`;
  if (!campaign.html.trim()) return { subject, html: "", text: "", headers: {} };
  const contact = input.contact;
  return composeFor(
    deps,
    {
      _id: input.id,
      key: "",
      userId: campaign.userId,
      projectId: campaign.projectId,
      campaignId: campaign._id,
      automationId: "",
      contactId: contact?.contactId ?? "",
      email: contact?.email ?? input.email ?? "",
      firstName: contact?.firstName ?? "",
      lastName: contact?.lastName ?? "",
      variant: "main",
      subject: campaign.subject,
      preheader: campaign.preheader,
      html: campaign.html,
      createdAt: deps.now(),
    },
    {
      subject,
      preheader: campaign.preheader,
      html: campaign.html,
      business: input.business,
      utmCampaign: campaign.name,
    },
    { tracking: false },
  );
}

/** Composes one recipient's email with its consent links, tracking and footer. */
export async function composeFor(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  options: { tracking: boolean },
): Promise<ComposedEmail> {
  const contact: EmailContact = {
    contactId: delivery.contactId,
    email: delivery.email,
    firstName: delivery.firstName,
    lastName: delivery.lastName,
  };
  const origin = deps.publicOrigin.replace(/\/+$/, "");
  // A test send names no contact: its links are placeholders (contacts has no token to sign).
  const links = delivery.contactId
    ? await deps.email.links.links(delivery.userId, delivery.projectId, delivery.contactId)
    : testSendLinks(origin);
  const secret = deps.email.trackingSecret;
  return composeEmail({
    subject: content.subject,
    preheader: content.preheader,
    html: content.html,
    contact,
    business: content.business,
    links,
    tracking: options.tracking
      ? {
          openUrl: `${origin}/t/o/${signTrackingToken(secret, { deliveryId: delivery._id })}.gif`,
          clickUrl: (url) => `${origin}/t/c/${signTrackingToken(secret, { deliveryId: delivery._id, url })}`,
        }
      : null,
    utmCampaign: content.utmCampaign,
  });
}

/**
 * The delivery's state from its facts: its final fact, its attempts (oldest first), and whether
 * the latest attempt was held (refused for the account's key: closed, nothing left).
 */
export function stateOf(facts: FactDoc[]): { final: FactDoc | undefined; attempts: FactDoc[]; held: boolean } {
  const attempts = facts.filter((fact) => fact.kind === "attempt");
  const latest = attempts.at(-1);
  const suffix = latest ? latest._id.slice(latest._id.lastIndexOf(":") + 1) : "";
  return {
    final: facts.find((fact) => FINAL_FACTS.includes(fact.kind)),
    attempts,
    held: Boolean(latest) && facts.some((fact) => fact.kind === "held" && fact._id.endsWith(`:held:${suffix}`)),
  };
}

/** The `held` fact closing attempt `number`: the provider refused the key, nothing left. */
export function heldFact(delivery: DeliveryDoc, number: number, reason: string) {
  return {
    deliveryId: delivery._id,
    campaignId: delivery.campaignId,
    kind: "held" as const,
    suffix: String(number),
    detail: reason.slice(0, 300),
  };
}

/** Names this process in the attempts it claims (host and pid), so an operator sees who was sending. */
const WORKER = `${hostname()}:${process.pid}`;

/**
 * Sends one delivery, and records every message that may have left:
 * 1. a delivery with a final fact (sent, failed, skipped) is done;
 * 2. a fresh attempt of another worker leaves it alone ("busy");
 * 3. the email is composed and the provider's and account's Redis-wide pace waited for; then the
 *    facts are read again when an attempt is taken over, and the attempt is claimed by inserting `<id>:attempt:<n>` (two workers: one wins) right before the
 *    message is handed to the provider, so an attempt without an outcome is one whose message may
 *    have left (its worker died between the hand-off and the record);
 * 4. taking over such an expired attempt resends with the same Message-ID and records `resent`
 *    (a possible duplicate, counted in the campaign's figures and, once more, in the plan's
 *    `emails` counter);
 * 5. the provider is tried with backoff (each try its own attempt, so a long retry never looks
 *    expired), then `sent` (with EmailSent in its outbox) or `failed` is recorded.
 * The `emails` counter is reserved by the caller before (idempotent by delivery id) and released here
 * when the delivery fails without any message having possibly left.
 */
export async function runDelivery(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  knownFacts?: FactDoc[],
): Promise<DeliveryOutcome> {
  const repo = deps.stores.email;
  const isFresh = (attempt: FactDoc) =>
    deps.now().getTime() - new Date(attempt.at).getTime() < deps.email.attemptLeaseMs;
  let { final, attempts, held } = stateOf(knownFacts ?? (await repo.factsOf(delivery._id)));
  if (final) return "done-before";
  if (attempts.at(-1) && !held && isFresh(attempts.at(-1)!)) return "busy";

  let prepared: PreparedSend;
  try {
    prepared = await prepareSend(deps, delivery, content);
  } catch (error) {
    if (pausesSending(error)) return "paused";
    throw error;
  }
  await prepared.throttle.take(delivery.userId);
  // Facts known from the start of a campaign's round may be minutes old: before taking an attempt
  // over, read them again (a worker that was only slow may have recorded its outcome since).
  if (attempts.length > 0) {
    ({ final, attempts, held } = stateOf(await repo.factsOf(delivery._id)));
    if (final) return "done-before";
    if (!held && isFresh(attempts.at(-1)!)) return "busy";
  }
  // A held attempt is closed (nothing left): going on is no resend.
  return sendTries(deps, prepared, {
    claimed: attempts.length,
    resent: attempts.length > 0 && !held,
    tried: 0,
    lastError: "",
  });
}

/** One delivery's message, composed once for every try, with its provider, throttle and sender. */
export interface PreparedSend {
  delivery: DeliveryDoc;
  email: ComposedEmail;
  provider: EmailProvider;
  throttle: SendThrottle;
  sender?: ResolvedSender;
}

/** The provider (with its throttle) and sender identity a user's project sends with. */
export interface SendRoute {
  provider: EmailProvider;
  throttle: SendThrottle;
  sender?: ResolvedSender;
}

/** Composes a delivery's email and looks up its provider and sender. */
export async function prepareSend(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  route?: SendRoute,
): Promise<PreparedSend> {
  const [email, chosen] = await Promise.all([
    composeFor(deps, delivery, content, { tracking: true }),
    route ?? routeOf(deps, delivery.userId, delivery.projectId, content.business.name),
  ]);
  return { delivery, email, ...chosen };
}

/** The provider (and its throttle) and sender identity of a user's project. */
export async function routeOf(
  deps: DeliveryDeps,
  userId: string,
  projectId: string,
  businessName: string,
): Promise<SendRoute> {
  const [{ provider, throttle }, sender] = await Promise.all([
    deps.email.providers.providerFor(userId, projectId),
    deps.email.senders?.resolve(userId, projectId, businessName),
  ]);
  return { provider, throttle, ...(sender ? { sender } : {}) };
}

/** The provider's message of a prepared delivery (the same Message-ID on every try). */
export function messageOf(deps: DeliveryDeps, prepared: PreparedSend): ProviderMessage {
  const { delivery, email, sender } = prepared;
  return {
    to: delivery.email,
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: email.headers,
    messageId: messageIdOf(delivery._id, deps.publicOrigin),
    deliveryId: delivery._id,
    ...(sender ? { sender } : {}),
  };
}

/** The `sent` fact of a delivery, with EmailSent in its outbox. */
export function sentFact(deps: DeliveryDeps, delivery: DeliveryDoc, provider: string, messageId: string) {
  return {
    deliveryId: delivery._id,
    campaignId: delivery.campaignId,
    kind: "sent" as const,
    detail: `${provider} ${messageId}`,
    event: deps.email.events.sent(refOf(delivery)),
  };
}

/** The `attempt` fact claiming try `number` of a delivery (named by its worker). */
export function attemptFact(delivery: DeliveryDoc, number: number) {
  return {
    deliveryId: delivery._id,
    campaignId: delivery.campaignId,
    kind: "attempt" as const,
    suffix: String(number),
    detail: WORKER,
  };
}

/**
 * Where a delivery's tries stand: `claimed` attempts recorded so far, whether the first try of this
 * run takes an expired attempt over (`resent`), tries made by this run and the last error.
 */
export interface TryState {
  claimed: number;
  resent: boolean;
  tried: number;
  lastError: string;
}

/**
 * The tries of a delivery from `state.tried` on: each waits its backoff and the pace, claims its own
 * attempt right before the hand-off (a lost claim: another worker has it, "busy"), and records
 * `sent` (with EmailSent) or, after the last try or a permanent error, `failed`. The first try of a
 * takeover records `resent` (a possible duplicate) before its hand-off.
 */
export async function sendTries(deps: DeliveryDeps, prepared: PreparedSend, state: TryState): Promise<DeliveryOutcome> {
  const repo = deps.stores.email;
  const { delivery, provider, throttle } = prepared;
  const delays = backoffDelays(deps.email.retry.attempts, deps.email.retry.baseMs);
  let { claimed, lastError } = state;
  for (let attempt = state.tried; attempt <= delays.length; attempt++) {
    if (attempt > 0) {
      await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
      await throttle.take(delivery.userId);
    }
    claimed += 1;
    if (!(await repo.addFact(attemptFact(delivery, claimed), deps.now()))) return "busy";
    if (attempt === 0 && state.resent) await recordResend(deps, delivery, claimed);
    try {
      const { messageId } = await provider.send(messageOf(deps, prepared));
      const { event, ...fact } = sentFact(deps, delivery, provider.name, messageId);
      await repo.addFact(fact, deps.now(), event);
      deps.email.kick();
      return "sent";
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      if (pausesSending(error)) {
        await repo.addFact(heldFact(delivery, claimed, lastError), deps.now());
        return "paused";
      }
      if (error instanceof ProviderError && error.permanent) break;
      deps.logger.warn({ deliveryId: delivery._id, attempt: attempt + 1, err: lastError }, "email send failed");
    }
  }
  await recordFailure(deps, delivery, lastError, state.resent ? resendKey(delivery._id, state.claimed + 1) : null);
  return "failed";
}

/**
 * Records `failed` and gives the reserved email back, unless a message may have left: after a
 * resend (`resentKey`), the expired attempt's message stays counted and only the resend's is released.
 */
export async function recordFailure(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  error: string,
  resentKey: string | null,
): Promise<void> {
  await deps.stores.email.addFact(
    { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "failed", detail: error },
    deps.now(),
  );
  await deps.email.usage.release(delivery.userId, resentKey ?? delivery._id).catch((releaseError: unknown) => {
    deps.logger.warn({ err: releaseError, deliveryId: delivery._id }, "could not release the email reservation");
  });
}

/** The `emails` counter's key of a resend (attempt `number`). */
export function resendKey(deliveryId: string, number: number): string {
  return `${deliveryId}:resent:${number}`;
}

/**
 * Records a resend after an expired attempt: the `resent` fact (a possible duplicate) and one more
 * email on the plan's counter. Over the plan's limit the resend still goes (the recipient may have
 * nothing yet) and the counter stays at its limit.
 */
async function recordResend(deps: DeliveryDeps, delivery: DeliveryDoc, number: number): Promise<void> {
  await deps.stores.email.addFact(
    {
      deliveryId: delivery._id,
      campaignId: delivery.campaignId,
      kind: "resent",
      suffix: String(number),
      detail: `attempt ${number - 1} expired without an outcome`,
    },
    deps.now(),
  );
  await deps.email.usage.reserve(delivery.userId, resendKey(delivery._id, number)).catch((error: unknown) => {
    deps.logger.warn({ err: error, deliveryId: delivery._id }, "could not count a resent email");
  });
  metrics.emailPossibleDuplicates.add(1, { kind: delivery.campaignId ? "campaign" : "automation" });
  deps.logger.warn({ deliveryId: delivery._id, attempt: number }, "email resent after an expired attempt");
}
