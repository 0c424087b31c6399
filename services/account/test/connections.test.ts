import { metaThrottleMs, parseKeyRing, providerHttp, retryAfterMs, sealSecret } from "@crafter/kit";
import { LocalOAuthServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  authorizeUrl,
  codeChallenge,
  longLivedExchangeUrl,
  parseTokenAnswer,
  refusesGrant,
  returnUrl,
  safeReturnPath,
  signState,
  tokenRequestBody,
  verifyState,
  wantsRefresh,
} from "../src/domain/connections";
import { configuredProviders, PROVIDER_IDS, PROVIDERS } from "../src/domain/providers";

const now = new Date("2026-11-28T10:00:00Z");
const secret = "s".repeat(40);
const payload = {
  nonce: "n-1",
  userId: "u-1",
  projectId: "p-1",
  provider: "google" as const,
  returnPath: "/app/settings/integrations",
  expiresAt: now.getTime() + 600_000,
};

describe("the connect state", () => {
  it("comes back as signed, and not once altered, expired or signed with another key", () => {
    const state = signState(secret, payload);
    expect(verifyState(secret, state, now)).toEqual(payload);
    const [body, mac] = state.split(".") as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), p: "p-2" }),
    ).toString("base64url");
    expect(verifyState(secret, `${forged}.${mac}`, now)).toBeNull();
    expect(verifyState(`${secret}x`, state, now)).toBeNull();
    expect(verifyState(secret, state, new Date(payload.expiresAt))).toBeNull();
    expect(verifyState(secret, "", now)).toBeNull();
    expect(verifyState(secret, `${state}.x`, now)).toBeNull();
  });
});

describe("PKCE and the authorize URL", () => {
  it("computes RFC 7636 appendix B's S256 challenge", () => {
    expect(codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("asks Google for code, offline access and S256, at the overridden base URL", () => {
    const google = configuredProviders({
      GOOGLE_CLIENT_ID: "cid",
      GOOGLE_CLIENT_SECRET: "sec",
      GOOGLE_BASE_URL: "http://oauth.test:9000",
    }).get("google");
    if (!google) throw new Error("google is an OAuth provider");
    const url = new URL(
      authorizeUrl(google, {
        clientId: "cid",
        redirectUri: "https://app.example/cb",
        state: "st",
        verifier: "v".repeat(43),
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe("http://oauth.test:9000/o/oauth2/v2/auth");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "cid",
      redirect_uri: "https://app.example/cb",
      scope: "openid email profile",
      state: "st",
      code_challenge: codeChallenge("v".repeat(43)),
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
    });
    expect(google.tokenUrl).toBe("http://oauth.test:9000/token");
  });

  it("names TikTok's client `client_key`, joins its scopes with commas and sends no verifier", () => {
    const tiktok = configuredProviders({ TIKTOK_CLIENT_ID: "ck", TIKTOK_CLIENT_SECRET: "cs" }).get("tiktok");
    if (!tiktok) throw new Error("tiktok is an OAuth provider");
    const url = new URL(
      authorizeUrl(tiktok, { clientId: "ck", redirectUri: "https://a/cb", state: "s", verifier: "v" }),
    );
    expect(url.searchParams.get("client_key")).toBe("ck");
    expect(url.searchParams.get("scope")).toBe("user.info.basic,video.publish,video.upload,video.list");
    expect(url.searchParams.has("code_challenge")).toBe(false);
    const form = new URLSearchParams(
      tokenRequestBody(
        tiktok,
        { clientId: "ck", clientSecret: "cs" },
        {
          type: "authorization_code",
          code: "c",
          redirectUri: "https://a/cb",
          verifier: "v",
        },
      ),
    );
    expect(form.get("client_key")).toBe("ck");
    expect(form.has("code_verifier")).toBe(false);
  });
});

describe("the provider registry", () => {
  it("lists the eight integrations of spec section 1, each with its flag; a provider without a client is not configured", () => {
    expect(PROVIDER_IDS).toHaveLength(8);
    for (const id of PROVIDER_IDS) expect(PROVIDERS[id].flag).toMatch(/_integration$/);
    const providers = configuredProviders({ GOOGLE_CLIENT_ID: "cid" });
    expect([...providers.keys()]).toEqual(["google", "google_business", "meta", "tiktok"]);
    expect(providers.get("google")?.client).toBeUndefined();
    expect(providers.get("meta")?.tokenUrl).toBe("https://graph.facebook.com/v21.0/oauth/access_token");
  });

  it("exchanges Meta's short-lived token for a long-lived one, as the Graph API's guide asks", () => {
    expect(PROVIDERS.meta.kind === "oauth2" && PROVIDERS.meta.longLivedExchange).toBe("fb_exchange_token");
    const meta = configuredProviders({ META_BASE_URL: "http://graph.crafter.test:28046" }).get("meta")!;
    const url = new URL(longLivedExchangeUrl(meta, { clientId: "app", clientSecret: "s&cret" }, "EAAshort"));
    expect(`${url.origin}${url.pathname}`).toBe("http://graph.crafter.test:28046/v21.0/oauth/access_token");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      grant_type: "fb_exchange_token",
      client_id: "app",
      client_secret: "s&cret",
      fb_exchange_token: "EAAshort",
    });
  });
});

describe("token answers", () => {
  it("reads tokens, their expiry and scopes; and RFC 6749 section 5.2 and Meta's error shapes", () => {
    expect(
      parseTokenAnswer(200, { access_token: "a", refresh_token: "r", expires_in: 3600, scope: "openid email" }, now),
    ).toEqual({
      accessToken: "a",
      refreshToken: "r",
      expiresAt: new Date(now.getTime() + 3_600_000),
      scopes: ["openid", "email"],
    });
    const refused = parseTokenAnswer(
      400,
      { error: "invalid_grant", error_description: "Token has been expired or revoked." },
      now,
    );
    expect(refused).toEqual({ error: "invalid_grant", description: "Token has been expired or revoked." });
    expect(refusesGrant(refused as never)).toBe(true);
    expect(
      parseTokenAnswer(
        400,
        { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } },
        now,
      ),
    ).toEqual({
      error: "OAuthException",
      description: "Invalid OAuth access token.",
    });
    const down = parseTokenAnswer(503, null, now);
    expect(down).toEqual({ error: "server_error", description: "HTTP 503" });
    expect(refusesGrant(down as never)).toBe(false);
    expect(parseTokenAnswer(200, { token_type: "Bearer" }, now)).toEqual({
      error: "invalid_response",
      description: "no access_token",
    });
  });

  it("refreshes within the margin before expiry, never a token without expiry", () => {
    expect(wantsRefresh(new Date(now.getTime() + 60_000), now, 300_000)).toBe(true);
    expect(wantsRefresh(new Date(now.getTime() + 600_000), now, 300_000)).toBe(false);
    expect(wantsRefresh(null, now, 300_000)).toBe(false);
  });

  it("reads Retry-After in seconds or as a date, capped", () => {
    expect(retryAfterMs("2", now, 10_000)).toBe(2000);
    expect(retryAfterMs(new Date(now.getTime() + 5000).toUTCString(), now, 10_000)).toBe(5000);
    expect(retryAfterMs("3600", now, 10_000)).toBe(10_000);
    expect(retryAfterMs("soon", now, 10_000)).toBeNull();
    expect(retryAfterMs(null, now, 10_000)).toBeNull();
  });
});

describe("Meta's rate limits", () => {
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });
  it("reads the wait from X-Business-Use-Case-Usage, a full X-App-Usage, or a throttling error code", () => {
    const business = JSON.stringify({
      "1234": [{ type: "pages", call_count: 100, total_time: 20, estimated_time_to_regain_access: 3 }],
    });
    expect(metaThrottleMs(headers({ "x-business-use-case-usage": business }), null)).toBe(180_000);
    expect(metaThrottleMs(headers({ "x-app-usage": '{"call_count":100,"total_time":10}' }), null)).toBe(60_000);
    expect(metaThrottleMs(headers({ "x-app-usage": '{"call_count":40}' }), null)).toBeNull();
    expect(metaThrottleMs(headers({}), { error: { code: 613, message: "Calls within one hour have exceeded" } })).toBe(
      60_000,
    );
    expect(metaThrottleMs(headers({}), { error: { code: 190, message: "Invalid OAuth access token." } })).toBeNull();
    expect(metaThrottleMs(headers({ "x-app-usage": "not json" }), null)).toBeNull();
  });
});

describe("return paths", () => {
  it("return only to the dashboard, with the outcome in the query", () => {
    expect(safeReturnPath("https://evil.example/app/")).toBe("/app/settings/integrations");
    expect(safeReturnPath("//evil.example/app/")).toBe("/app/settings/integrations");
    expect(safeReturnPath("/app/business/reviews")).toBe("/app/business/reviews");
    expect(returnUrl("/app/settings/integrations", { connected: "google" })).toBe(
      "/app/settings/integrations?connected=google",
    );
    expect(returnUrl("/app/x?tab=1", { error: "access_denied", provider: "meta" })).toBe(
      "/app/x?tab=1&error=access_denied&provider=meta",
    );
  });
});

describe("provider calls (against the local OAuth server)", () => {
  const server = new LocalOAuthServer({ clientId: "cid", clientSecret: "sec" });
  let base = "";
  beforeAll(async () => {
    base = `http://oauth.crafter.test:${await server.start()}`;
  });
  afterAll(() => server.stop());

  it("waits out a 429's Retry-After and tries again, at most `attempts` times", async () => {
    const waits: number[] = [];
    const http = providerHttp({
      timeoutMs: 2000,
      pins: { "oauth.crafter.test": "127.0.0.1" },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    server.failNext(2, 429, "2");
    const answer = await http.call(`${base}/token`, {
      method: "POST",
      form: "grant_type=refresh_token&client_id=cid&client_secret=sec&refresh_token=x",
    });
    expect(waits).toEqual([2000, 2000]);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: "invalid_grant", error_description: "Token has been expired or revoked." });
    server.failNext(5, 503, "");
    const gaveUp = await http.call(`${base}/token`, { method: "POST", form: "" });
    expect(gaveUp.status).toBe(503);
    expect(waits.slice(2)).toEqual([500, 1000]);
    server.failNext(0);
  });

  it("refuses a provider URL on a private address that is not pinned", async () => {
    const http = providerHttp({ timeoutMs: 2000, pins: {} });
    const local = base.replace("oauth.crafter.test", "127.0.0.1");
    await expect(http.call(`${local}/token`, { method: "POST", form: "" })).rejects.toMatchObject({
      reason: "blocked-address",
    });
  });
});

describe("sealed tokens", () => {
  it("open only for the connection they were sealed for", async () => {
    const { openSecret } = await import("@crafter/kit");
    const ring = parseKeyRing(`k1:${Buffer.alloc(32, 7).toString("base64")}`);
    const sealed = sealSecret(ring, "at-secret", "p-1:google");
    expect(sealed).not.toContain("at-secret");
    expect(openSecret(ring, sealed, "p-1:google")).toBe("at-secret");
    expect(() => openSecret(ring, sealed, "p-2:google")).toThrow();
  });
});
