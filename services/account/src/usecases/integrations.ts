import { randomBytes, randomUUID } from "node:crypto";
import { appError, type Caller, OutboundError } from "@crafter/kit";
import { canOnProject } from "@crafter/roles";
import type { AccountDeps } from "../deps";
import {
  authorizeUrl,
  type ConnectionView,
  describeRefusal,
  isOAuthError,
  longLivedExchangeUrl,
  type OAuthErrorAnswer,
  parseTokenAnswer,
  readPath,
  refusesGrant,
  returnUrl,
  safeReturnPath,
  signState,
  type TokenSet,
  tokenRequestBody,
  verifyState,
  wantsRefresh,
} from "../domain/connections";
import { type ConfiguredProvider, isProviderId, PROVIDERS, type Provider, type ProviderId } from "../domain/providers";
import { type ConnectionDoc, toConnectionView } from "../store/connection.repository";
import { completeShopConnection, revokeShop, startShopConnection, syncShop } from "./shopify";

// Connections of a project to its integrations' providers (DESIGN section 3: account owns them;
// the services that act through one ask GetAccessToken for a short-lived access token).

/** One integration as Settings › Integrations lists it. */
export interface IntegrationView {
  provider: ProviderId;
  title: string;
  /** oauth2: connectable here; the others come with their own flows. */
  kind: Provider["kind"];
  /** Its client id and secret are set on this server (and tokens can be sealed). */
  configured: boolean;
  connection: ConnectionView | null;
  /** Shopify: the store domains' suffix this server accepts; "" otherwise. */
  shopSuffix: string;
}

const redirectUri = (deps: AccountDeps, provider: ProviderId) =>
  `${deps.integrations.publicOrigin.replace(/\/$/, "")}/api/integrations/${provider}/callback`;

export function mustBeProvider(provider: string): ProviderId {
  if (!isProviderId(provider)) throw appError("NOT_FOUND", "No such integration.");
  return provider;
}

/** @throws NOT_FOUND unless the caller reaches the project; FORBIDDEN unless `manage` and owner or projectAdmin. */
export async function mustReach(deps: AccountDeps, caller: Caller, projectId: string, manage: boolean): Promise<void> {
  if (!projectId || projectId.length > 64) throw appError("CR_ERR_BAD_REQUEST", "projectId is required");
  if (caller.delegatedProjectId && caller.delegatedProjectId !== projectId)
    throw appError("NOT_FOUND", "No such project.");
  const role = await deps.integrations.projects.roleOn(caller, projectId);
  if (!role) throw appError("NOT_FOUND", "No such project.");
  if (manage && !canOnProject(role, "project.settings"))
    throw appError("FORBIDDEN", "Only the project's owner or a project admin may connect integrations.");
}

export async function mustBeEnabled(deps: AccountDeps, userId: string, provider: ProviderId): Promise<void> {
  const flags = await deps.integrations.flagsOf(userId);
  if (!flags.has(PROVIDERS[provider].flag)) throw appError("FEATURE_DISABLED");
}

function configuredOAuth(deps: AccountDeps, provider: ProviderId): ConfiguredProvider & { client: object } {
  const configured = deps.integrations.providers.get(provider);
  if (!configured) throw appError("CONFLICT", `${PROVIDERS[provider].title} does not connect this way.`);
  if (!configured.client || !deps.stores.connections.canSeal)
    throw appError("CONFLICT", `${configured.title} is not configured on this server.`);
  return configured as ConfiguredProvider & { client: object };
}

/**
 * The project's integrations whose flag is on for the caller, each with its connection (never a token).
 * @throws NOT_FOUND for a project the caller does not reach.
 */
export async function listIntegrations(
  deps: AccountDeps,
  caller: Caller,
  projectId: string,
): Promise<IntegrationView[]> {
  await mustReach(deps, caller, projectId, false);
  const [flags, docs] = await Promise.all([
    deps.integrations.flagsOf(caller.userId),
    deps.stores.connections.list(projectId),
  ]);
  const byProvider = new Map(docs.map((doc) => [doc.provider, doc]));
  return Object.values(PROVIDERS)
    .filter((provider) => flags.has(provider.flag))
    .map((provider) => {
      const doc = byProvider.get(provider.id);
      const configured = deps.integrations.providers.get(provider.id);
      return {
        provider: provider.id,
        title: provider.title,
        kind: provider.kind,
        // An API key is the owner's own: only sealing is needed on this server.
        configured:
          (provider.kind === "api_key" ||
            (provider.kind === "shop_oauth" ? Boolean(deps.integrations.shopify) : Boolean(configured?.client))) &&
          deps.stores.connections.canSeal,
        connection: doc ? toConnectionView(doc) : null,
        shopSuffix: provider.kind === "shop_oauth" ? (deps.integrations.shopify?.shopSuffix ?? "") : "",
      };
    });
}

/**
 * Starts connecting: keeps the PKCE verifier, signs a single-use state naming the project's owner,
 * the project, the provider and the return path, and answers the provider's authorize URL.
 * @throws NOT_FOUND, FORBIDDEN (not owner or projectAdmin), FEATURE_DISABLED (flag off),
 *   CONFLICT (the provider is not configured on this server).
 */
export async function startConnection(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string; returnPath?: string; shop?: string },
): Promise<{ authorizeUrl: string }> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, true);
  await mustBeEnabled(deps, caller.userId, provider);
  if (PROVIDERS[provider].kind === "shop_oauth")
    return startShopConnection(deps, caller, {
      projectId: input.projectId,
      shop: input.shop ?? "",
      ...(input.returnPath ? { returnPath: input.returnPath } : {}),
    });
  const configured = configuredOAuth(deps, provider);
  const now = deps.now();
  const nonce = randomUUID();
  const verifier = randomBytes(32).toString("base64url");
  const expiresAt = now.getTime() + deps.integrations.attemptMs;
  // Attempts abandoned at the provider's consent screen go here (expiry is also checked on use).
  await deps.stores.connections.sweep(now);
  await deps.stores.connections.startAttempt(nonce, verifier, caller.actorUserId ?? caller.userId, new Date(expiresAt));
  const state = signState(deps.integrations.stateSecret, {
    nonce,
    userId: caller.userId,
    projectId: input.projectId,
    provider,
    returnPath: safeReturnPath(input.returnPath),
    expiresAt,
  });
  return {
    authorizeUrl: authorizeUrl(configured, {
      clientId: configured.client?.clientId ?? "",
      redirectUri: redirectUri(deps, provider),
      state,
      verifier,
    }),
  };
}

/** The provider's callback query (RFC 6749 section 4.1.2), as the gateway received it. */
export interface CallbackInput {
  provider: string;
  state: string;
  code: string;
  /** The provider's `error` (e.g. access_denied) when the user did not grant. */
  error: string;
  /** The whole query as received (Shopify signs all of it). */
  rawQuery?: string;
}

/**
 * Finishes connecting: checks the state (signature, expiry, single use, provider), exchanges the
 * code with the verifier, reads the remote account, stores the connection. Never throws for what
 * the provider or the browser sent: the answer is the dashboard path to redirect to, with
 * `?connected=<provider>` or `?error=<code>`.
 */
export async function completeConnection(deps: AccountDeps, input: CallbackInput): Promise<{ location: string }> {
  if (input.provider === "shopify") return completeShopConnection(deps, input.rawQuery ?? "");
  const now = deps.now();
  const payload = verifyState(deps.integrations.stateSecret, input.state, now);
  const fail = (error: string, path = safeReturnPath(undefined)) => ({
    location: returnUrl(path, { error, provider: isProviderId(input.provider) ? input.provider : "" }),
  });
  if (!payload || payload.provider !== input.provider) return fail("invalid_state");
  const attempt = await deps.stores.connections.useAttempt(payload.nonce, now);
  if (!attempt) return fail("invalid_state", payload.returnPath);
  if (input.error) return fail(/^[a-z_]{1,40}$/.test(input.error) ? input.error : "access_denied", payload.returnPath);
  if (!input.code || input.code.length > 2048) return fail("invalid_request", payload.returnPath);
  const configured = deps.integrations.providers.get(payload.provider);
  if (!configured?.client || !deps.stores.connections.canSeal) return fail("not_configured", payload.returnPath);
  try {
    const answer = await tokenCall(deps, configured, {
      type: "authorization_code",
      code: input.code,
      redirectUri: redirectUri(deps, payload.provider),
      verifier: attempt.verifier,
    });
    if (isOAuthError(answer)) {
      deps.logger.warn({ provider: payload.provider, error: answer.error }, "the provider refused the code");
      return fail(answer.error.slice(0, 40), payload.returnPath);
    }
    const tokens = configured.longLivedExchange ? await longLived(deps, configured, answer) : answer;
    if (isOAuthError(tokens)) {
      deps.logger.warn(
        { provider: payload.provider, error: tokens.error },
        "the provider refused the long-lived token",
      );
      return fail(tokens.error.slice(0, 40), payload.returnPath);
    }
    const remote = await remoteAccount(deps, configured, tokens.accessToken);
    await deps.stores.connections.connect({
      projectId: payload.projectId,
      ownerUserId: payload.userId,
      connectedBy: attempt.connectedBy,
      provider: payload.provider,
      remoteAccountId: remote.id,
      remoteAccountName: remote.name,
      scopes: answer.scopes ?? [...configured.defaultScopes],
      tokens,
      at: now,
    });
    return { location: returnUrl(payload.returnPath, { connected: payload.provider }) };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    deps.logger.warn({ provider: payload.provider, reason: error.reason }, "the provider could not be reached");
    return fail("provider_unreachable", payload.returnPath);
  }
}

async function tokenCall(
  deps: AccountDeps,
  provider: ConfiguredProvider,
  grant: Parameters<typeof tokenRequestBody>[2],
): Promise<TokenSet | OAuthErrorAnswer> {
  const client = provider.client ?? { clientId: "", clientSecret: "" };
  const answer = await deps.integrations.http.call(provider.tokenUrl, {
    method: "POST",
    form: tokenRequestBody(provider, client, grant),
  });
  return parseTokenAnswer(answer.status, answer.json, deps.now());
}

/**
 * The long-lived token for a short-lived one (Meta's `fb_exchange_token`), with its expiry; the
 * scopes stay the code's. A refusal is the provider's error answer.
 */
async function longLived(
  deps: AccountDeps,
  provider: ConfiguredProvider,
  shortLived: TokenSet,
): Promise<TokenSet | OAuthErrorAnswer> {
  const client = provider.client ?? { clientId: "", clientSecret: "" };
  const answer = await deps.integrations.http.call(longLivedExchangeUrl(provider, client, shortLived.accessToken), {
    method: "GET",
  });
  const tokens = parseTokenAnswer(answer.status, answer.json, deps.now());
  return isOAuthError(tokens) ? tokens : { ...tokens, ...(shortLived.scopes ? { scopes: shortLived.scopes } : {}) };
}

/** The connected account's id and name, from the provider's profile endpoint ("" when it does not say). */
async function remoteAccount(
  deps: AccountDeps,
  provider: ConfiguredProvider,
  accessToken: string,
): Promise<{ id: string; name: string }> {
  const { profile } = provider;
  const url = new URL(profile.url);
  if (profile.tokenInQuery) url.searchParams.set("access_token", accessToken);
  const answer = await deps.integrations.http.call(url.toString(), {
    method: "GET",
    ...(profile.tokenInQuery ? {} : { bearer: accessToken }),
  });
  if (answer.status !== 200) return { id: "", name: "" };
  return { id: readPath(answer.json, profile.idPath), name: readPath(answer.json, profile.namePath).slice(0, 200) };
}

/**
 * Disconnects: revokes the grant at the provider where it offers revocation, then deletes the
 * tokens (also when the revocation failed: the grant then ends when the provider expires it).
 * @returns whether the provider confirmed the revocation.
 * @throws NOT_FOUND (no such project or connection), FORBIDDEN (not owner or projectAdmin).
 */
export async function disconnect(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string },
): Promise<{ revoked: boolean }> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, true);
  const doc = await deps.stores.connections.get(input.projectId, provider);
  if (!doc) throw appError("NOT_FOUND", "This integration is not connected.");
  let revoked = false;
  const configured = deps.integrations.providers.get(provider);
  if (provider === "shopify" && doc.state === "connected") {
    try {
      revoked = await revokeShop(deps, doc.remoteAccountId, deps.stores.connections.open(doc).accessToken);
    } catch (error) {
      deps.logger.warn({ provider, err: (error as Error).message }, "uninstalling from the shop failed");
    }
  } else if (configured?.client && configured.revokeUrl && configured.revocation !== "none") {
    try {
      revoked = await revoke(deps, configured, doc);
    } catch (error) {
      deps.logger.warn({ provider, err: (error as Error).message }, "revoking at the provider failed");
    }
  }
  await deps.stores.connections.remove(input.projectId, provider);
  return { revoked };
}

async function revoke(deps: AccountDeps, provider: ConfiguredProvider, doc: ConnectionDoc): Promise<boolean> {
  const tokens = deps.stores.connections.open(doc);
  const client = provider.client ?? { clientId: "", clientSecret: "" };
  const url = provider.revokeUrl ?? "";
  if (provider.revocation === "meta") {
    const target = new URL(url);
    target.searchParams.set("access_token", tokens.accessToken);
    return (await deps.integrations.http.call(target.toString(), { method: "DELETE" })).status === 200;
  }
  const form = new URLSearchParams();
  // RFC 7009: revoking the refresh token ends the whole grant (Google does so).
  form.set("token", tokens.refreshToken || tokens.accessToken);
  if (provider.revocation === "rfc7009")
    form.set("token_type_hint", tokens.refreshToken ? "refresh_token" : "access_token");
  form.set(provider.clientIdParam, client.clientId);
  form.set("client_secret", client.clientSecret);
  return (await deps.integrations.http.call(url, { method: "POST", form: form.toString() })).status === 200;
}

/**
 * Imports the connected store again ("Sync now").
 * @throws NOT_FOUND (no such project or connection), FORBIDDEN, CONFLICT (nothing to sync for this
 *   provider, or it needs reconnecting).
 */
export async function syncConnection(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string },
): Promise<{ requestedAt: Date }> {
  const provider = mustBeProvider(input.provider);
  await mustReach(deps, caller, input.projectId, true);
  if (provider !== "shopify") throw appError("CONFLICT", `${PROVIDERS[provider].title} has nothing to import.`);
  return syncShop(deps, input.projectId);
}

/** The parts of a store a service imports, and which service reports each. */
const SYNC_PARTS: Readonly<Record<string, string>> = { products: "projects", customers: "contacts" };

/**
 * Keeps what a service's import did (shown in Settings › Integrations).
 * @throws CR_ERR_BAD_REQUEST (an unknown part, or one the calling service does not import).
 */
export async function reportSync(
  deps: AccountDeps,
  caller: Caller,
  input: { projectId: string; provider: string; part: string; imported: number; error: string },
): Promise<void> {
  const provider = mustBeProvider(input.provider);
  if (!SYNC_PARTS[input.part] || (caller.service && caller.service !== SYNC_PARTS[input.part]))
    throw appError("CR_ERR_BAD_REQUEST", "Unknown part.");
  await deps.stores.connections.recordSync(input.projectId, provider, input.part, {
    finishedAt: deps.now(),
    imported: Math.max(0, Math.trunc(input.imported)),
    error: input.error.slice(0, 300),
  });
}

/** What a service acting through a connection gets. */
export interface AccessGrant {
  accessToken: string;
  expiresAt: Date | null;
  remoteAccountId: string;
  scopes: string[];
}

const LOCK_MS = 30_000;
const WAIT_STEP_MS = 200;

/**
 * A working access token of the project's connection, refreshed first when it expires within the
 * margin. Of concurrent callers (replicas), one refreshes under a Redis lock; the others wait for
 * its result. A refused refresh, or an expired token that cannot be refreshed, marks the connection
 * needs_reconnecting.
 * @throws NOT_FOUND (not connected), CONFLICT (needs reconnecting), UNAVAILABLE (the provider
 *   could not refresh now; the connection keeps its state).
 */
export async function getAccessToken(
  deps: AccountDeps,
  input: { projectId: string; provider: string },
): Promise<AccessGrant> {
  const provider = mustBeProvider(input.provider);
  let doc = await deps.stores.connections.get(input.projectId, provider);
  if (!doc) throw appError("NOT_FOUND", "This integration is not connected.");
  const margin = deps.integrations.refreshMarginMs;
  const deadline = Date.now() + LOCK_MS;
  while (doc.state === "connected" && doc.refreshSealed && wantsRefresh(doc.expiresAt, deps.now(), margin)) {
    const lockKey = `integrations:refresh:${doc._id}`;
    const owner = randomUUID();
    if ((await deps.integrations.redis.set(lockKey, owner, "PX", LOCK_MS, "NX")) === "OK") {
      try {
        const fresh = await deps.stores.connections.get(input.projectId, provider);
        if (fresh && fresh.state === "connected" && wantsRefresh(fresh.expiresAt, deps.now(), margin))
          await refresh(deps, fresh);
      } finally {
        // Only our own lock: a refresh slower than LOCK_MS must not free the next holder's.
        await deps.integrations.redis.eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
          1,
          lockKey,
          owner,
        );
      }
    } else {
      if (Date.now() > deadline) throw appError("UNAVAILABLE", "The token is being refreshed; try again.");
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
    const next = await deps.stores.connections.get(input.projectId, provider);
    if (!next) throw appError("NOT_FOUND", "This integration is not connected.");
    doc = next;
  }
  const lapsed = !doc.refreshSealed && doc.expiresAt !== null && doc.expiresAt <= deps.now();
  if (lapsed && doc.state === "connected") await expired(deps, doc);
  if (doc.state !== "connected" || lapsed)
    throw appError("CONFLICT", `${PROVIDERS[provider].title} needs reconnecting in Settings › Integrations.`);
  const tokens = deps.stores.connections.open(doc);
  return {
    accessToken: tokens.accessToken,
    expiresAt: tokens.expiresAt,
    remoteAccountId: doc.remoteAccountId,
    scopes: doc.scopes,
  };
}

/**
 * A token that cannot be refreshed (Meta's long-lived one, about 60 days) has passed its expiry:
 * only a new consent gives another, so the connection turns needs_reconnecting (once; its owner is
 * notified through ConnectionNeedsReconnecting).
 */
async function expired(deps: AccountDeps, doc: ConnectionDoc): Promise<void> {
  const lastError = `The access token expired on ${doc.expiresAt?.toISOString().slice(0, 10)}: connect again.`;
  const event = deps.integrations.events.needsReconnecting({
    connectionId: doc._id,
    projectId: doc.projectId,
    ownerUserId: doc.ownerUserId,
    provider: doc.provider,
    providerTitle: PROVIDERS[doc.provider].title,
    lastError,
    connectedAt: doc.connectedAt,
  });
  if (await deps.stores.connections.refused(doc, lastError, event)) {
    deps.integrations.kick();
    deps.logger.warn({ provider: doc.provider, projectId: doc.projectId }, "a connection's token expired");
  }
}

/** One refresh (RFC 6749 section 6), under the lock. @throws UNAVAILABLE when the provider cannot answer now. */
async function refresh(deps: AccountDeps, doc: ConnectionDoc): Promise<void> {
  const provider = deps.integrations.providers.get(doc.provider);
  if (!provider?.client)
    throw appError("UNAVAILABLE", `${PROVIDERS[doc.provider].title} is not configured on this server.`);
  const { refreshToken } = deps.stores.connections.open(doc);
  let answer: TokenSet | OAuthErrorAnswer;
  try {
    answer = await tokenCall(deps, provider, { type: "refresh_token", refreshToken });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    await deps.stores.connections.failed(doc, `The provider could not be reached (${error.reason}).`);
    throw appError("UNAVAILABLE", `${provider.title} could not be reached.`);
  }
  if (!isOAuthError(answer)) {
    await deps.stores.connections.refreshed(doc, answer, deps.now());
    return;
  }
  if (refusesGrant(answer)) {
    const lastError = describeRefusal(answer);
    const event = deps.integrations.events.needsReconnecting({
      connectionId: doc._id,
      projectId: doc.projectId,
      ownerUserId: doc.ownerUserId,
      provider: doc.provider,
      providerTitle: provider.title,
      lastError,
      connectedAt: doc.connectedAt,
    });
    await deps.stores.connections.needsReconnecting(doc, lastError, event);
    deps.integrations.kick();
    deps.logger.warn(
      { provider: doc.provider, projectId: doc.projectId, error: answer.error },
      "a refresh was refused",
    );
    return;
  }
  await deps.stores.connections.failed(doc, describeRefusal(answer));
  throw appError("UNAVAILABLE", `${provider.title} did not refresh the token now.`);
}
