/**
 * Connections of a project to an integration's provider (DESIGN section 3): the OAuth 2.0
 * authorization code grant with PKCE (RFC 6749, RFC 7636), its signed state, the token endpoint's
 * answers (RFC 6749 section 5) and when a token wants refreshing. Pure: randomness, clocks and
 * secrets come in as arguments.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { ConfiguredProvider, ProviderId } from "./providers";

/** connected: its tokens work; needs_reconnecting: the provider refused a refresh (or a revoked grant). */
export type ConnectionState = "connected" | "needs_reconnecting";

/** A connection as Settings › Integrations shows it: never a token. */
export interface ConnectionView {
  provider: ProviderId;
  projectId: string;
  state: ConnectionState;
  /** The remote account or page it is connected as. */
  remoteAccountId: string;
  remoteAccountName: string;
  scopes: string[];
  connectedAt: Date;
  /** The last time a call through it worked (connect, refresh, a service's use). */
  lastWorkedAt: Date | null;
  /** The provider's last refusal, readable ("invalid_grant: Token has been revoked."); "" when none. */
  lastError: string;
  /** The provider's event webhook to this project, where it has one (SendGrid). */
  webhook?: { state: "active" | "failed"; url: string; error: string };
  /** The last import of each part of a connected store (Shopify: products, customers). */
  syncs: { part: string; finishedAt: Date; imported: number; error: string }[];
}

/** Tokens as the token endpoint answered them (RFC 6749 section 5.1). */
export interface TokenSet {
  accessToken: string;
  /** Absent when the provider issued none (or kept the old one on a refresh). */
  refreshToken?: string;
  /** When the access token expires; null when the provider did not say. */
  expiresAt: Date | null;
  /** The granted scopes, when the answer lists them. */
  scopes?: string[];
}

/** An error answer of a token or revocation endpoint (RFC 6749 section 5.2). */
export interface OAuthErrorAnswer {
  error: string;
  description: string;
}

/** The PKCE code challenge of a verifier (RFC 7636 section 4.2, S256). */
export function codeChallenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** What a signed state names; `nonce` makes it single-use, `expiresAt` (ms since epoch) bounds it. */
export interface StatePayload {
  nonce: string;
  userId: string;
  projectId: string;
  provider: ProviderId;
  returnPath: string;
  expiresAt: number;
}

const mac = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("base64url");

/** `<base64url JSON>.<HMAC-SHA256>`: the state sent to the provider and back. */
export function signState(secret: string, payload: StatePayload): string {
  const body = Buffer.from(
    JSON.stringify({
      n: payload.nonce,
      u: payload.userId,
      p: payload.projectId,
      v: payload.provider,
      r: payload.returnPath,
      e: payload.expiresAt,
    }),
  ).toString("base64url");
  return `${body}.${mac(secret, body)}`;
}

/**
 * The payload of a state this server signed, unless it was altered or has expired. Whether it was
 * used already is the store's to say (its nonce).
 * @returns null for a malformed, altered or expired state.
 */
export function verifyState(secret: string, state: string, now: Date): StatePayload | null {
  if (typeof state !== "string" || state.length > 2048) return null;
  const [body, signature, extra] = state.split(".");
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
  const { n, u, p, v, r, e } = raw;
  if (typeof n !== "string" || typeof u !== "string" || typeof p !== "string" || typeof v !== "string") return null;
  if (typeof r !== "string" || typeof e !== "number" || e <= now.getTime()) return null;
  return { nonce: n, userId: u, projectId: p, provider: v as ProviderId, returnPath: r, expiresAt: e };
}

/** Where a connection returns to: Settings › Integrations unless a same-site /app path is given. */
export const DEFAULT_RETURN_PATH = "/app/settings/integrations";

/** `path` when it is a path of the dashboard (no scheme, host or `//`), else the default. */
export function safeReturnPath(path: string | undefined): string {
  if (!path || path.length > 512 || !path.startsWith("/app/") || path.includes("//") || path.includes("\\"))
    return DEFAULT_RETURN_PATH;
  return path;
}

/** The return path with the outcome in its query: `?connected=<provider>` or `?error=<code>&provider=<provider>`. */
export function returnUrl(
  returnPath: string,
  outcome: { connected: ProviderId } | { error: string; provider?: string },
) {
  const url = new URL(safeReturnPath(returnPath), "http://return.invalid");
  if ("connected" in outcome) url.searchParams.set("connected", outcome.connected);
  else {
    url.searchParams.set("error", outcome.error);
    if (outcome.provider) url.searchParams.set("provider", outcome.provider);
  }
  return `${url.pathname}${url.search}`;
}

/** The provider's authorize URL for one attempt (RFC 6749 section 4.1.1, RFC 7636 section 4.3). */
export function authorizeUrl(
  provider: ConfiguredProvider,
  input: { clientId: string; redirectUri: string; state: string; verifier: string; scopes?: readonly string[] },
): string {
  const url = new URL(provider.authorizeUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set(provider.clientIdParam, input.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("scope", (input.scopes ?? provider.defaultScopes).join(provider.scopeSeparator));
  url.searchParams.set("state", input.state);
  if (provider.pkce) {
    url.searchParams.set("code_challenge", codeChallenge(input.verifier));
    url.searchParams.set("code_challenge_method", "S256");
  }
  for (const [name, value] of Object.entries(provider.extraAuthorizeParams ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

/** The form body of a token request: the code exchange or a refresh (RFC 6749 sections 4.1.3 and 6). */
export function tokenRequestBody(
  provider: ConfiguredProvider,
  client: { clientId: string; clientSecret: string },
  grant:
    | { type: "authorization_code"; code: string; redirectUri: string; verifier: string }
    | { type: "refresh_token"; refreshToken: string },
): string {
  const form = new URLSearchParams();
  form.set("grant_type", grant.type);
  form.set(provider.clientIdParam, client.clientId);
  form.set("client_secret", client.clientSecret);
  if (grant.type === "authorization_code") {
    form.set("code", grant.code);
    form.set("redirect_uri", grant.redirectUri);
    if (provider.pkce) form.set("code_verifier", grant.verifier);
  } else {
    form.set("refresh_token", grant.refreshToken);
  }
  return form.toString();
}

/**
 * The URL that exchanges a short-lived user token for a long-lived one (Meta: `GET
 * /oauth/access_token?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token`).
 * Its answer reads like the token endpoint's (`parseTokenAnswer`).
 */
export function longLivedExchangeUrl(
  provider: Pick<ConfiguredProvider, "tokenUrl">,
  client: { clientId: string; clientSecret: string },
  shortLived: string,
): string {
  const url = new URL(provider.tokenUrl);
  url.searchParams.set("grant_type", "fb_exchange_token");
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("client_secret", client.clientSecret);
  url.searchParams.set("fb_exchange_token", shortLived);
  return url.toString();
}

/**
 * Reads a token endpoint's JSON answer.
 * @returns the tokens (status 2xx with an `access_token`), or the error answer (RFC 6749 section
 *   5.2; TikTok's and Meta's shapes read the same way), or an `invalid_response` error for anything else.
 */
export function parseTokenAnswer(status: number, json: unknown, now: Date): TokenSet | OAuthErrorAnswer {
  const body = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  // Meta: { error: { message, type, code } }; TikTok v2 and RFC 6749: { error, error_description }.
  const error = body.error;
  if (status < 200 || status >= 300 || error) {
    if (typeof error === "string" && error) {
      const description = typeof body.error_description === "string" ? body.error_description : "";
      return { error, description };
    }
    if (typeof error === "object" && error !== null) {
      const meta = error as Record<string, unknown>;
      return { error: String(meta.type ?? "invalid_request"), description: String(meta.message ?? "") };
    }
    return { error: status >= 500 ? "server_error" : "invalid_response", description: `HTTP ${status}` };
  }
  const access = body.access_token;
  if (typeof access !== "string" || !access) return { error: "invalid_response", description: "no access_token" };
  const expiresIn = Number(body.expires_in);
  const scope = typeof body.scope === "string" ? body.scope : undefined;
  return {
    accessToken: access,
    ...(typeof body.refresh_token === "string" && body.refresh_token ? { refreshToken: body.refresh_token } : {}),
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
    ...(scope ? { scopes: scope.split(/[ ,]+/).filter(Boolean) } : {}),
  };
}

export function isOAuthError(answer: TokenSet | OAuthErrorAnswer): answer is OAuthErrorAnswer {
  return "error" in answer;
}

/**
 * Whether a refresh's refusal means the grant is gone (the user must reconnect) rather than a
 * passing failure: `invalid_grant` (revoked, expired), `unauthorized_client`, `invalid_client`.
 */
export function refusesGrant(answer: OAuthErrorAnswer): boolean {
  return ["invalid_grant", "unauthorized_client", "invalid_client", "OAuthException"].includes(answer.error);
}

/** Readable last error of a refusal, at most 300 characters, never a token. */
export function describeRefusal(answer: OAuthErrorAnswer): string {
  return (answer.description ? `${answer.error}: ${answer.description}` : answer.error).slice(0, 300);
}

/** Whether an access token that expires at `expiresAt` should be refreshed now (`marginMs` early). */
export function wantsRefresh(expiresAt: Date | null, now: Date, marginMs: number): boolean {
  return expiresAt !== null && expiresAt.getTime() - marginMs <= now.getTime();
}

/** The value at a dot path of a JSON answer, as text; "" when absent. */
export function readPath(json: unknown, path: string): string {
  let at: unknown = json;
  for (const key of path.split(".")) {
    if (typeof at !== "object" || at === null) return "";
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === "string" || typeof at === "number" ? String(at) : "";
}
