import { randomBytes, randomUUID } from "node:crypto";
import {
  appError,
  type Caller,
  normaliseShopDomain,
  OutboundError,
  type OutboxEntry,
  ShopifyApiError,
  shopifyGraphql,
  shopUrl,
  verifyShopifyQuery,
  verifyShopifyWebhook,
} from "@crafter/kit";
import type { AccountDeps } from "../deps";
import { returnUrl, safeReturnPath, signState, verifyState } from "../domain/connections";
import type { ShopifyApp } from "../domain/providers";
import { grantsScopes, HANDLED_TOPICS, SUBSCRIBED_TOPICS, webhookSubject } from "../domain/shopify";

// Shopify's per-shop grant beside the OAuth 2.0 flow of integrations.ts: the same signed,
// single-use state, sealed token and connection store; the shop's own host serves the grant, the
// callback's query is signed with the app's secret, and the store's changes come as webhooks.

/** @throws CONFLICT when the Shopify app is not configured on this server (or tokens cannot be sealed). */
function shopifyApp(deps: AccountDeps): ShopifyApp {
  const app = deps.integrations.shopify;
  if (!app || !deps.stores.connections.canSeal)
    throw appError("CONFLICT", "Shopify store is not configured on this server.");
  return app;
}

const redirectUri = (deps: AccountDeps) =>
  `${deps.integrations.publicOrigin.replace(/\/$/, "")}/api/integrations/shopify/callback`;

const webhookUri = (deps: AccountDeps) =>
  `${(deps.integrations.webhookOrigin || deps.integrations.publicOrigin).replace(/\/$/, "")}/api/integrations/shopify/webhooks`;

/**
 * Starts installing on the shop the owner named: answers the shop's authorize URL
 * (`https://{shop}/admin/oauth/authorize`) with the app's client id, its scopes, the callback and a
 * signed single-use state; the shop is kept with the attempt, and the callback must name it.
 * Access and flag are checked by the caller (integrations.ts startConnection).
 * @throws CR_ERR_BAD_REQUEST (not a `*.myshopify.com` domain), CONFLICT (not configured).
 */
export async function startShopConnection(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; shop: string; returnPath?: string },
): Promise<{ authorizeUrl: string }> {
  const app = shopifyApp(deps);
  const shop = normaliseShopDomain(input.shop, app.shopSuffix);
  if (!shop) throw appError("CR_ERR_BAD_REQUEST", `Enter the store's domain, like your-store.${app.shopSuffix}.`);
  const now = deps.now();
  const nonce = randomUUID();
  const expiresAt = now.getTime() + deps.integrations.attemptMs;
  await deps.stores.connections.sweep(now);
  await deps.stores.connections.startAttempt(
    nonce,
    randomBytes(16).toString("base64url"),
    caller.actorUserId ?? caller.userId,
    new Date(expiresAt),
    shop,
  );
  const state = signState(deps.integrations.stateSecret, {
    nonce,
    userId: caller.userId,
    projectId: input.projectId,
    provider: "shopify",
    returnPath: safeReturnPath(input.returnPath),
    expiresAt,
  });
  const url = new URL(shopUrl({ adminOrigin: app.adminOrigin, shop }, "/admin/oauth/authorize"));
  url.searchParams.set("client_id", app.clientId);
  url.searchParams.set("scope", app.scopes.join(","));
  url.searchParams.set("redirect_uri", redirectUri(deps));
  url.searchParams.set("state", state);
  // No grant_options[]=per-user: an offline token, which works without the owner signed in to Shopify.
  return { authorizeUrl: url.toString() };
}

/**
 * Finishes installing: the query's `hmac` (every other parameter, keyed by the app's secret), the
 * shop's domain, the state (signature, expiry, single use, the same shop), then the code exchange at
 * the shop, the token sealed, the webhooks subscribed and the first import requested. Never throws
 * for what Shopify or the browser sent: answers the dashboard path with `?connected=shopify` or
 * `?error=<code>` (invalid_hmac, invalid_shop, invalid_state, invalid_request, insufficient_scope,
 * provider_unreachable, not_configured).
 */
export async function completeShopConnection(deps: AccountDeps, rawQuery: string): Promise<{ location: string }> {
  const fail = (error: string, path?: string) => ({
    location: returnUrl(safeReturnPath(path), { error, provider: "shopify" }),
  });
  const app = deps.integrations.shopify;
  if (!app || !deps.stores.connections.canSeal) return fail("not_configured");
  if (rawQuery.length > 8192) return fail("invalid_request");
  const params = new URLSearchParams(rawQuery.replace(/^\?/, ""));
  if (!verifyShopifyQuery(params, app.clientSecret)) return fail("invalid_hmac");
  const now = deps.now();
  const payload = verifyState(deps.integrations.stateSecret, params.get("state") ?? "", now);
  if (payload === null) return fail("invalid_state");
  if (payload.provider !== "shopify") return fail("invalid_state");
  const shop = normaliseShopDomain(params.get("shop") ?? "", app.shopSuffix);
  if (!shop || shop !== params.get("shop")) return fail("invalid_shop", payload.returnPath);
  const attempt = await deps.stores.connections.useAttempt(payload.nonce, now);
  if (!attempt || attempt.shop !== shop) return fail("invalid_state", payload.returnPath);
  const code = params.get("code") ?? "";
  if (!code || code.length > 512) return fail("invalid_request", payload.returnPath);
  const endpoint = { adminOrigin: app.adminOrigin, shop };
  try {
    const answer = await deps.integrations.http.call(shopUrl(endpoint, "/admin/oauth/access_token"), {
      method: "POST",
      json: { client_id: app.clientId, client_secret: app.clientSecret, code },
    });
    const body = (answer.json ?? {}) as { access_token?: unknown; scope?: unknown; error?: unknown };
    if (answer.status !== 200 || typeof body.access_token !== "string" || !body.access_token) {
      deps.logger.warn({ status: answer.status, error: body.error }, "Shopify refused the code");
      return fail(
        typeof body.error === "string" && /^[a-z_]{1,40}$/.test(body.error) ? body.error : "invalid_grant",
        payload.returnPath,
      );
    }
    const scope = typeof body.scope === "string" ? body.scope : "";
    if (!grantsScopes(scope, app.scopes)) return fail("insufficient_scope", payload.returnPath);
    const accessToken = body.access_token;
    const { data } = await shopifyGraphql<{ shop: { name: string; myshopifyDomain: string } }>(
      deps.integrations.http,
      endpoint,
      accessToken,
      "query ShopName { shop { name myshopifyDomain } }",
    );
    await deps.stores.connections.connect({
      projectId: payload.projectId,
      ownerUserId: payload.userId,
      connectedBy: attempt.connectedBy,
      provider: "shopify",
      remoteAccountId: shop,
      remoteAccountName: String(data.shop?.name ?? shop).slice(0, 200),
      scopes: scope.split(",").filter(Boolean),
      tokens: { accessToken, expiresAt: null },
      at: now,
    });
    await deps.stores.shopify.installed({ shop, projectId: payload.projectId, ownerUserId: payload.userId, at: now });
    await subscribeWebhooks(deps, endpoint, accessToken);
    await requestSync(deps, { projectId: payload.projectId, ownerUserId: payload.userId, shop }, "install");
    return { location: returnUrl(payload.returnPath, { connected: "shopify" }) };
  } catch (error) {
    if (error instanceof OutboundError || error instanceof ShopifyApiError) {
      deps.logger.warn({ shop, err: error.message }, "installing on the Shopify store failed");
      return fail("provider_unreachable", payload.returnPath);
    }
    throw error;
  }
}

const SUBSCRIBE = `mutation Subscribe($topic: WebhookSubscriptionTopic!, $callbackUrl: URL!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { callbackUrl: $callbackUrl, format: JSON }) {
    webhookSubscription { id }
    userErrors { field message }
  }
}`;

/** Subscribes the webhooks Crafter handles; one already there ("has already been taken", a reinstall) is fine. */
async function subscribeWebhooks(
  deps: AccountDeps,
  endpoint: { adminOrigin: string; shop: string },
  accessToken: string,
): Promise<void> {
  for (const topic of SUBSCRIBED_TOPICS) {
    const { data } = await shopifyGraphql<{
      webhookSubscriptionCreate: { userErrors: { message: string }[] } | null;
    }>(deps.integrations.http, endpoint, accessToken, SUBSCRIBE, { topic, callbackUrl: webhookUri(deps) });
    const errors = data.webhookSubscriptionCreate?.userErrors ?? [];
    if (errors.length > 0 && !errors.every((error) => /already been taken/i.test(error.message)))
      deps.logger.warn({ topic, errors }, "Shopify did not subscribe a webhook");
  }
}

async function requestSync(
  deps: AccountDeps,
  input: { projectId: string; ownerUserId: string; shop: string },
  reason: "install" | "manual",
): Promise<Date> {
  const at = deps.now();
  const event = deps.integrations.events.shopifySyncRequested({ ...input, reason, at });
  await deps.stores.connections.publish(`${input.projectId}:shopify`, event);
  deps.integrations.kick();
  return at;
}

/**
 * "Sync now": the connected store is imported again (products by projects, customers by contacts).
 * Access is checked by the caller (integrations.ts syncConnection).
 * @throws NOT_FOUND (not connected), CONFLICT (needs reconnecting).
 */
export async function syncShop(deps: AccountDeps, projectId: string): Promise<{ requestedAt: Date }> {
  const doc = await deps.stores.connections.get(projectId, "shopify");
  if (!doc) throw appError("NOT_FOUND", "This integration is not connected.");
  if (doc.state !== "connected")
    throw appError("CONFLICT", "Shopify store needs reconnecting in Settings › Integrations.");
  const requestedAt = await requestSync(
    deps,
    { projectId, ownerUserId: doc.ownerUserId, shop: doc.remoteAccountId },
    "manual",
  );
  return { requestedAt };
}

/**
 * Uninstalls the app from the shop (`DELETE /admin/api_permissions/current.json`), which ends the
 * token there. @returns whether Shopify confirmed.
 */
export async function revokeShop(deps: AccountDeps, shop: string, accessToken: string): Promise<boolean> {
  const app = deps.integrations.shopify;
  if (!app) return false;
  const answer = await deps.integrations.http.call(
    shopUrl({ adminOrigin: app.adminOrigin, shop }, "/admin/api_permissions/current.json"),
    { method: "DELETE", headers: { "x-shopify-access-token": accessToken } },
  );
  return answer.status === 200;
}

/** A webhook as the gateway received it. */
export interface ShopifyWebhookInput {
  topic: string;
  shopDomain: string;
  webhookId: string;
  eventId: string;
  hmac: string;
  body: Uint8Array;
}

/**
 * A webhook Shopify sent: verified by its `X-Shopify-Hmac-Sha256` over the raw body (timing-safe),
 * recorded once by its webhook id with one event per project the shop was installed in (written
 * in the same insert), so it is answered at once and the work is done by the consumers.
 * `app/uninstalled` also deletes the shop's connections here (the token no longer works).
 * @returns first: false for a redelivery (nothing done again).
 * @throws UNAUTHENTICATED (the signature does not match, or no app is configured),
 *   CR_ERR_BAD_REQUEST (no webhook id, an unknown topic, a body that is not JSON).
 */
export async function receiveShopifyWebhook(
  deps: AccountDeps,
  input: ShopifyWebhookInput,
): Promise<{ first: boolean }> {
  const app = deps.integrations.shopify;
  if (!app || !verifyShopifyWebhook(input.body, input.hmac, app.clientSecret))
    throw appError("UNAUTHENTICATED", "The webhook's signature does not match.");
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(input.webhookId))
    throw appError("CR_ERR_BAD_REQUEST", "X-Shopify-Webhook-Id is required.");
  if (!HANDLED_TOPICS.has(input.topic)) throw appError("CR_ERR_BAD_REQUEST", "This topic is not handled.");
  const shop = normaliseShopDomain(input.shopDomain, app.shopSuffix);
  if (!shop) throw appError("CR_ERR_BAD_REQUEST", "X-Shopify-Shop-Domain is not a shop.");
  const subject = webhookSubject(input.topic, input.body);
  if (!subject) throw appError("CR_ERR_BAD_REQUEST", "The body is not a JSON object.");
  const at = deps.now();
  const installs = await deps.stores.shopify.installsOf(shop);
  const events: OutboxEntry[] = installs.map((install) =>
    deps.integrations.events.shopifyWebhookReceived({
      projectId: install.projectId,
      ownerUserId: install.ownerUserId,
      shop,
      topic: input.topic,
      webhookId: input.webhookId,
      ...subject,
      at,
    }),
  );
  const first = await deps.stores.shopify.receive({
    webhookId: input.webhookId,
    shop,
    topic: input.topic,
    eventId: input.eventId.slice(0, 100),
    at,
    events,
  });
  if (!first) return { first };
  if (events.length > 0) deps.integrations.kick();
  if (input.topic === "app/uninstalled") {
    for (const doc of await deps.stores.connections.byRemoteAccount("shopify", shop))
      await deps.stores.connections.remove(doc.projectId, "shopify");
  }
  if (input.topic === "shop/redact") await deps.stores.shopify.forget(shop);
  return { first };
}
