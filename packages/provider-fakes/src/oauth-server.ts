import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OAuth 2.0 provider for tests, speaking what the real providers speak (RFC 6749, RFC 7636,
 * RFC 7009), on the paths of the providers it stands in for. Configured by base URL: a provider's
 * `<PREFIX>_BASE_URL` moves its URLs here, keeping their paths (domain/providers.ts).
 *
 * - authorize (`GET`): checks the client and redirect URI, keeps the code challenge, and redirects
 *   to the redirect URI with `code` and `state` (consent is automatic; `deny()` answers
 *   `error=access_denied` instead);
 * - token (`POST`, form): `authorization_code` (single-use code, same redirect URI, the PKCE
 *   verifier checked against the S256 challenge) and `refresh_token` (rotating the refresh token);
 *   client authentication in the body or HTTP Basic; errors as RFC 6749 section 5.2 JSON
 *   (`invalid_grant`, `invalid_client`, `unsupported_grant_type`);
 * - revocation (`POST`, RFC 7009): revokes the token and its grant, 200 even for an unknown token;
 * - userinfo (`GET`, Bearer): the account's `sub`, `email` and `name`;
 * - `failNext(n, 429, retryAfter)`: the next n token calls answer 429 with Retry-After.
 *
 * Paths: Google's (`/o/oauth2/v2/auth`, `/token`, `/revoke`, `/v1/userinfo`). Another provider adds
 * its own paths to PATHS with the same behaviour.
 */
export interface OAuthServerOptions {
  clientId: string;
  clientSecret: string;
  /** Seconds an access token lives (`expires_in`). */
  expiresIn?: number;
  account?: { sub: string; email: string; name: string };
}

interface Grant {
  id: string;
  scope: string;
  revoked: boolean;
}

interface CodeEntry {
  grant: Grant;
  redirectUri: string;
  challenge: string;
  method: string;
  used: boolean;
}

const PATHS = {
  authorize: ["/o/oauth2/v2/auth"],
  token: ["/token"],
  revoke: ["/revoke"],
  userinfo: ["/v1/userinfo"],
};

export class LocalOAuthServer {
  private server: Server | undefined;
  private readonly codes = new Map<string, CodeEntry>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  private denying = false;
  private failures: { count: number; status: number; retryAfter: string } = { count: 0, status: 0, retryAfter: "" };
  /** What the provider saw, for the tests to assert. */
  readonly seen = {
    authorize: 0,
    codeExchanges: 0,
    refreshes: 0,
    refused: 0,
    rateLimited: 0,
    revoked: [] as string[],
    /** Every token-endpoint form, as received (tests check no token of ours leaks elsewhere). */
    tokenForms: [] as Record<string, string>[],
  };
  expiresIn: number;

  constructor(private readonly options: OAuthServerOptions) {
    this.expiresIn = options.expiresIn ?? 3600;
  }

  /** Listens on 127.0.0.1:`port` (0: any). @returns the port. */
  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "server_error", error_description: error.message }));
      });
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next authorizations answer `error=access_denied` (the user said no) until `deny(false)`. */
  deny(on = true): void {
    this.denying = on;
  }

  /** The next `count` token calls answer `status` (429 or 5xx) with `Retry-After: retryAfter`. */
  failNext(count: number, status = 429, retryAfter = "1"): void {
    this.failures = { count, status, retryAfter };
  }

  /** Revokes every grant on the provider's side (the user removed the app there). */
  revokeAll(): void {
    for (const grant of this.refreshTokens.values()) grant.revoked = true;
  }

  /** Whether an access token is live (issued, its grant not revoked). */
  isLive(accessToken: string): boolean {
    const grant = this.accessTokens.get(accessToken);
    return Boolean(grant && !grant.revoked);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname;
    if (req.method === "GET" && PATHS.authorize.includes(path)) return this.authorize(url, res);
    if (req.method === "POST" && PATHS.token.includes(path)) return this.token(req, res);
    if (req.method === "POST" && PATHS.revoke.includes(path)) return this.revoke(req, res);
    if (req.method === "GET" && PATHS.userinfo.includes(path)) return this.userinfo(req, res);
    json(res, 404, { error: "not_found" });
  }

  private authorize(url: URL, res: ServerResponse): void {
    this.seen.authorize += 1;
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    // RFC 6749 section 4.1.2.1: a bad client or redirect URI is shown to the user, never redirected to.
    if (q.get("client_id") !== this.options.clientId || !/^https?:\/\//.test(redirectUri)) {
      json(res, 400, { error: "invalid_request", error_description: "unknown client or redirect_uri" });
      return;
    }
    const back = new URL(redirectUri);
    const state = q.get("state");
    if (state !== null) back.searchParams.set("state", state);
    if (this.denying) {
      back.searchParams.set("error", "access_denied");
    } else if (q.get("response_type") !== "code") {
      back.searchParams.set("error", "unsupported_response_type");
    } else if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
      back.searchParams.set("error", "invalid_request");
      back.searchParams.set("error_description", "code_challenge with S256 is required");
    } else {
      const code = token("code");
      this.codes.set(code, {
        grant: { id: token("grant"), scope: q.get("scope") ?? "", revoked: false },
        redirectUri,
        challenge: q.get("code_challenge") ?? "",
        method: "S256",
        used: false,
      });
      back.searchParams.set("code", code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    this.seen.tokenForms.push(form);
    if (this.failures.count > 0) {
      this.failures.count -= 1;
      this.seen.rateLimited += 1;
      res.writeHead(this.failures.status, {
        "content-type": "application/json",
        "retry-after": this.failures.retryAfter,
      });
      return void res.end(JSON.stringify({ error: "rate_limit_exceeded" }));
    }
    const basic = basicAuth(req);
    const clientId = basic?.[0] ?? form.client_id;
    const clientSecret = basic?.[1] ?? form.client_secret;
    if (clientId !== this.options.clientId || clientSecret !== this.options.clientSecret) {
      return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    }
    if (form.grant_type === "authorization_code") {
      this.seen.codeExchanges += 1;
      const entry = this.codes.get(form.code ?? "");
      if (!entry || entry.used || entry.redirectUri !== form.redirect_uri)
        return this.refuse(res, "Malformed auth code.");
      entry.used = true;
      const verifier = form.code_verifier ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== entry.challenge)
        return this.refuse(res, "Invalid code verifier.");
      return this.issue(res, entry.grant, true);
    }
    if (form.grant_type === "refresh_token") {
      this.seen.refreshes += 1;
      const grant = this.refreshTokens.get(form.refresh_token ?? "");
      if (!grant || grant.revoked) return this.refuse(res, "Token has been expired or revoked.");
      this.refreshTokens.delete(form.refresh_token ?? "");
      return this.issue(res, grant, true);
    }
    json(res, 400, { error: "unsupported_grant_type" });
  }

  private refuse(res: ServerResponse, description: string): void {
    this.seen.refused += 1;
    json(res, 400, { error: "invalid_grant", error_description: description });
  }

  private issue(res: ServerResponse, grant: Grant, withRefresh: boolean): void {
    const access = token("at");
    this.accessTokens.set(access, grant);
    const refresh = withRefresh ? token("rt") : undefined;
    if (refresh) this.refreshTokens.set(refresh, grant);
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(
      JSON.stringify({
        access_token: access,
        token_type: "Bearer",
        expires_in: this.expiresIn,
        scope: grant.scope,
        ...(refresh ? { refresh_token: refresh } : {}),
      }),
    );
  }

  private async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    const value = form.token ?? "";
    const grant = this.refreshTokens.get(value) ?? this.accessTokens.get(value);
    if (grant) {
      grant.revoked = true;
      this.seen.revoked.push(value);
    }
    res.writeHead(200);
    res.end();
  }

  private userinfo(req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    if (!this.isLive(bearer)) {
      json(res, 401, { error: "invalid_token" });
      return;
    }
    const account = this.options.account ?? { sub: "1001", email: "owner@bikes.example", name: "Bikes Owner" };
    json(res, 200, { ...account, email_verified: true });
  }
}

const token = (prefix: string) => `${prefix}-${randomBytes(18).toString("base64url")}`;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

async function formOf(req: IncomingMessage): Promise<Record<string, string>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return Object.fromEntries(new URLSearchParams(text));
}

function basicAuth(req: IncomingMessage): [string, string] | undefined {
  const match = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
  if (!match?.[1]) return undefined;
  const [id, secret] = Buffer.from(match[1], "base64").toString("utf8").split(":");
  return id !== undefined && secret !== undefined ? [decodeURIComponent(id), decodeURIComponent(secret)] : undefined;
}
