import { appError, badRequest, type Caller, OutboundError } from "@crafter/kit";
import type { AccountDeps } from "../deps";
import { PROVIDERS, type ProviderId } from "../domain/providers";
import {
  canSetUpWebhook,
  cleanApiKey,
  eventWebhookSettings,
  refusalOfScopes,
  SENDERS_PAGE,
  type Sender,
  scopesOf,
  sendersOf,
  sendgridErrorText,
  sendgridWebhookUrl,
  webhookIdFor,
} from "../domain/sendgrid";
import { type ConnectionDoc, type ConnectionWebhook, toConnectionView } from "../store/connection.repository";
import { disconnect, type IntegrationView, mustBeEnabled, mustBeProvider, mustReach } from "./integrations";

// Connections by API key (SendGrid, spec section 1): the key is checked at the provider, sealed
// like every token, and the provider's signed event webhook set up to this project; notifications
// sends through it (GetAccessToken) and verifies the events (GetWebhookKey).

const api = (deps: AccountDeps, path: string) => `${deps.integrations.sendgridBaseUrl.replace(/\/+$/, "")}${path}`;

/** The provider's answer to a call, or UNAVAILABLE when it cannot be reached. */
async function call(
  deps: AccountDeps,
  key: string,
  path: string,
  init: { method: "GET" | "POST" | "PATCH" | "DELETE"; json?: unknown } = { method: "GET" },
) {
  try {
    return await deps.integrations.http.call(api(deps, path), { ...init, bearer: key });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    deps.logger.warn({ path, reason: error.reason }, "SendGrid could not be reached");
    throw appError("UNAVAILABLE", "SendGrid could not be reached; try again in a moment.");
  }
}

function mustBeApiKeyProvider(provider: ProviderId): void {
  if (PROVIDERS[provider].kind !== "api_key")
    throw appError("CONFLICT", `${PROVIDERS[provider].title} does not connect with an API key.`);
}

/**
 * Sets up our signed event webhook in the key's SendGrid account: the webhook already posting to
 * this project's URL is updated (a reconnect), else one is made; then its signing is turned on,
 * which answers the public key. Never throws for SendGrid's refusals: they come back as `failed`.
 */
async function setUpWebhook(
  deps: AccountDeps,
  key: string,
  projectId: string,
  scopes: string[],
): Promise<ConnectionWebhook> {
  const url = sendgridWebhookUrl(deps.integrations.publicOrigin, projectId);
  const failed = (error: string): ConnectionWebhook => ({ id: "", url, publicKey: "", state: "failed", error });
  if (!canSetUpWebhook(scopes))
    return failed(
      "This key may not manage the Event Webhook (user.webhooks.event.settings.read and .update): bounces, complaints, opens and clicks will not come back.",
    );
  const all = await call(deps, key, "/v3/user/webhooks/event/settings/all");
  if (all.status !== 200) return failed(sendgridErrorText(all.status, all.json));
  let id = webhookIdFor(all.json, url);
  const settings = eventWebhookSettings(url);
  const saved = id
    ? await call(deps, key, `/v3/user/webhooks/event/settings/${encodeURIComponent(id)}`, {
        method: "PATCH",
        json: settings,
      })
    : await call(deps, key, "/v3/user/webhooks/event/settings", { method: "POST", json: settings });
  if (saved.status !== 200 && saved.status !== 201) return failed(sendgridErrorText(saved.status, saved.json));
  id ||= String((saved.json as { id?: unknown } | null)?.id ?? "");
  if (!id) return failed("SendGrid did not name the webhook it made.");
  const signed = await call(deps, key, `/v3/user/webhooks/event/settings/signed/${encodeURIComponent(id)}`, {
    method: "PATCH",
    json: { enabled: true },
  });
  const publicKey = (signed.json as { public_key?: unknown } | null)?.public_key;
  if (signed.status !== 200 || typeof publicKey !== "string" || !publicKey)
    return { ...failed(sendgridErrorText(signed.status, signed.json)), id };
  return { id, url, publicKey, state: "active", error: "" };
}

/**
 * Connects SendGrid with the owner's API key: the key's scopes are read (`GET /v3/scopes`; a key
 * SendGrid refuses, or one without mail.send, is refused with the reason), its account's first
 * verified sender names the connection, the signed event webhook is set up (its failure is shown,
 * not fatal: mail still goes), and the key is sealed. A previous connection is replaced.
 * @returns the integration as Settings › Integrations lists it.
 * @throws NOT_FOUND, FORBIDDEN, FEATURE_DISABLED, CONFLICT (not an API-key provider, or keys cannot
 *   be sealed here), CR_ERR_BAD_REQUEST (`apiKey`: the reason), UNAVAILABLE (SendGrid unreachable).
 */
export async function connectApiKey(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string; apiKey: string },
): Promise<IntegrationView> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, true);
  await mustBeEnabled(deps, caller.userId, provider);
  mustBeApiKeyProvider(provider);
  if (!deps.stores.connections.canSeal)
    throw appError("CONFLICT", `${PROVIDERS[provider].title} is not configured on this server.`);
  const key = cleanApiKey(input.apiKey);
  if (!key) throw badRequest({ apiKey: "Paste the whole API key (it starts with SG.)." });

  const answer = await call(deps, key, "/v3/scopes");
  if (answer.status === 401 || answer.status === 403)
    throw badRequest({ apiKey: `SendGrid refused this key (${sendgridErrorText(answer.status, answer.json)}).` });
  if (answer.status !== 200) throw appError("UNAVAILABLE", `SendGrid could not check the key (HTTP ${answer.status}).`);
  const scopes = scopesOf(answer.json);
  const refusal = refusalOfScopes(scopes);
  if (refusal) throw badRequest({ apiKey: refusal });

  const senders = await call(deps, key, `/v3/verified_senders?limit=${SENDERS_PAGE}`);
  const first =
    senders.status === 200 ? sendersOf(senders.json, SENDERS_PAGE).senders.find((s) => s.verified) : undefined;
  const webhook = await setUpWebhook(deps, key, input.projectId, scopes);
  if (webhook.state === "failed")
    deps.logger.warn({ projectId: input.projectId, error: webhook.error }, "the SendGrid event webhook was not set up");
  const doc = await deps.stores.connections.connect({
    projectId: input.projectId,
    ownerUserId: caller.userId,
    connectedBy: caller.actorUserId ?? caller.userId,
    provider,
    remoteAccountId: "",
    remoteAccountName: first ? first.email : "",
    scopes,
    tokens: { accessToken: key, expiresAt: null },
    at: deps.now(),
    webhook,
  });
  return {
    provider,
    title: PROVIDERS[provider].title,
    kind: PROVIDERS[provider].kind,
    configured: true,
    connection: toConnectionView(doc),
    shopSuffix: "",
  };
}

/**
 * A page of the connected SendGrid account's sender identities (verified or not), read live with
 * the sealed key. A key SendGrid now refuses turns the connection needs_reconnecting.
 * @throws NOT_FOUND (no such project, or not connected), CONFLICT (needs reconnecting, or not an
 *   API-key provider), UNAVAILABLE.
 */
export async function listVerifiedSenders(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string; after: string },
): Promise<{ senders: Sender[]; next: string }> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, false);
  mustBeApiKeyProvider(provider);
  const doc = await deps.stores.connections.get(input.projectId, provider);
  if (!doc) throw appError("NOT_FOUND", "This integration is not connected.");
  if (doc.state !== "connected")
    throw appError("CONFLICT", `${PROVIDERS[provider].title} needs reconnecting in Settings › Integrations.`);
  const { accessToken } = deps.stores.connections.open(doc);
  const after = /^\d{1,18}$/.test(input.after) ? `&lastSeenID=${input.after}` : "";
  const answer = await call(deps, accessToken, `/v3/verified_senders?limit=${SENDERS_PAGE}${after}`);
  if (answer.status === 401 || answer.status === 403) {
    await reportRefused(deps, {
      projectId: input.projectId,
      provider,
      error: sendgridErrorText(answer.status, answer.json),
    });
    throw appError("CONFLICT", `SendGrid refused the key: ${PROVIDERS[provider].title} needs reconnecting.`);
  }
  if (answer.status !== 200)
    throw appError("UNAVAILABLE", `SendGrid did not list the senders (HTTP ${answer.status}).`);
  return sendersOf(answer.json, SENDERS_PAGE);
}

/**
 * A provider refused a connection's key or token (a service saw 401/403): the connection turns
 * needs_reconnecting, once, with ConnectionNeedsReconnecting (its owner's notice).
 * @returns whether it was marked now (false: not connected, or marked before).
 */
export async function reportRefused(
  deps: AccountDeps,
  input: { projectId: string; provider: string; error: string },
): Promise<boolean> {
  const provider = mustBeProvider(input.provider);
  const doc = await deps.stores.connections.get(input.projectId, provider);
  if (doc?.state !== "connected") return false;
  const lastError = (input.error || "The provider refused the key.").slice(0, 300);
  const event = deps.integrations.events.needsReconnecting({
    connectionId: doc._id,
    projectId: doc.projectId,
    ownerUserId: doc.ownerUserId,
    provider: doc.provider,
    providerTitle: PROVIDERS[provider].title,
    lastError,
    connectedAt: doc.connectedAt,
  });
  const marked = await deps.stores.connections.refused(doc, lastError, event);
  if (marked) {
    deps.integrations.kick();
    deps.logger.warn({ provider, projectId: doc.projectId, error: lastError }, "a provider refused a connection's key");
  }
  return marked;
}

/** The public key of a connection's signed event webhook ("" when none), whatever its state. @throws NOT_FOUND. */
export async function getWebhookKey(
  deps: AccountDeps,
  input: { projectId: string; provider: string },
): Promise<string> {
  const provider = mustBeProvider(input.provider);
  const doc: ConnectionDoc | null = await deps.stores.connections.get(input.projectId, provider);
  if (!doc) throw appError("NOT_FOUND", "This integration is not connected.");
  return doc.webhook?.publicKey ?? "";
}

/** Removes our event webhook from the key's SendGrid account on Disconnect (best effort: a refused key cannot). */
export async function removeWebhook(deps: AccountDeps, doc: ConnectionDoc): Promise<void> {
  if (PROVIDERS[doc.provider].kind !== "api_key" || !doc.webhook?.id) return;
  const { accessToken } = deps.stores.connections.open(doc);
  const answer = await call(
    deps,
    accessToken,
    `/v3/user/webhooks/event/settings/${encodeURIComponent(doc.webhook.id)}`,
    {
      method: "DELETE",
    },
  );
  if (answer.status !== 204 && answer.status !== 200 && answer.status !== 404)
    deps.logger.warn({ projectId: doc.projectId, status: answer.status }, "the SendGrid event webhook was not removed");
}

/**
 * Disconnects an API-key provider: after the access check, removes our event webhook from the
 * provider's account (best effort), then deletes the sealed key (integrations.ts disconnect).
 * @throws NOT_FOUND, FORBIDDEN.
 */
export async function disconnectApiKey(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string },
): Promise<{ revoked: boolean }> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, true);
  const doc = await deps.stores.connections.get(input.projectId, provider);
  if (doc)
    await removeWebhook(deps, doc).catch((error: unknown) => {
      deps.logger.warn({ provider, err: (error as Error).message }, "removing the event webhook failed");
    });
  return disconnect(deps, caller, input);
}
