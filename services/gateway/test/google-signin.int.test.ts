import { randomUUID } from "node:crypto";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { type GoogleAccount, LocalGoogleOidc } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

// Sign in and sign up with Google through the gateway and the auth service, against a local OpenID
// provider (oidc-provider) standing in as Google's issuer (GOOGLE_OIDC_ISSUER of the test stack):
// PKCE, state and nonce, the ID token checked against the provider's JWKS, the same session as a
// password sign-in, linking only after a password sign-in, and unlinking.
jest.setTimeout(60_000);

const env = stackEnv();
const origin = env.PUBLIC_ORIGIN ?? gatewayUrl();
const issuer = new URL(env.GOOGLE_OIDC_ISSUER ?? "http://google-oidc.crafter.test:28050");
const google = new LocalGoogleOidc({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  redirectUris: [`${origin}/auth/google/callback`],
  host: issuer.hostname,
});

const account = (email: string, verified = true): GoogleAccount => ({
  sub: `g-${randomUUID()}`,
  email,
  email_verified: verified,
  name: "Ada Google",
});
const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@google.example`;

/** The browser at the provider: follows its redirects (its cookies kept) until it sends the browser back. */
async function atProvider(authorizeUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    const target = new URL(url, issuer);
    if (target.origin === new URL(origin).origin) return target.toString();
    // The browser resolves the provider's name; here it is the local server.
    target.hostname = "127.0.0.1";
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(target, { redirect: "manual", headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const next = response.headers.get("location");
    if (!next) throw new Error(`the provider answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    url = new URL(next, target.toString().replace("127.0.0.1", issuer.hostname)).toString();
  }
  throw new Error("too many redirects at the provider");
}

interface Flow {
  authorize: URL;
  /** The provider's redirect back to the gateway. */
  callback: URL;
}

/** Starts at the gateway and goes through the provider; `tamper` may change the authorization request. */
async function throughGoogle(
  browser: GatewaySession,
  tamper?: (authorize: URL) => void,
  intent = "signin",
): Promise<Flow> {
  const started = await browser.get(`/auth/google/start?intent=${intent}&callbackUrl=%2Fapp%2Fsettings`);
  expect(started.status).toBe(302);
  const authorize = new URL(started.headers.get("location")!);
  expect(authorize.origin).toBe(issuer.origin);
  tamper?.(authorize);
  return { authorize, callback: new URL(await atProvider(authorize.toString())) };
}

/** The browser back at the gateway's callback: where it is sent. */
async function back(browser: GatewaySession, callback: URL): Promise<string> {
  const answer = await browser.get(`${callback.pathname}${callback.search}`);
  expect(answer.status).toBe(302);
  return answer.headers.get("location")!;
}

async function signInWithGoogle(browser: GatewaySession): Promise<string> {
  return back(browser, (await throughGoogle(browser)).callback);
}

async function identities(browser: GatewaySession) {
  const listed = await browser.get("/api/user/identities");
  expect(listed.status).toBe(200);
  return listed.body.result as {
    identities: { provider: string; email: string }[];
    hasPassword: boolean;
    googleConfigured: boolean;
  };
}

beforeAll(async () => {
  await google.start(Number(issuer.port));
});

afterAll(() => google.stop());

describe("Google sign-in", () => {
  it("is offered by the sign-in page's options", async () => {
    const options = await new GatewaySession().get("/auth/options");
    expect(options.status).toBe(200);
    expect(options.body.result).toEqual({ google: true });
  });

  const first = account(uniqueEmail("new"));
  let firstUserId = "";

  it("signs up a new Google identity: a verified account, the same session as a password sign-in", async () => {
    google.signInAs(first);
    const browser = new GatewaySession();
    const { authorize, callback } = await throughGoogle(browser, undefined, "signup");
    expect(authorize.pathname).toBe("/auth");
    expect(authorize.searchParams.get("response_type")).toBe("code");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get("nonce")).toBeTruthy();
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${origin}/auth/google/callback`);
    expect(browser.cookies.get("crafter_gflow")).toBeTruthy();

    expect(await back(browser, callback)).toBe("/app/settings");
    expect(browser.cookies.get("crafter_at")).toBeTruthy();
    expect(browser.cookies.get("crafter_rt")).toBeTruthy();
    const checked = await browser.get("/auth/check");
    expect(checked.body.result.user).toMatchObject({ email: first.email, email_verified: true, role: "owner" });
    firstUserId = checked.body.result.user.userId;
    // The refresh contract is the password sign-in's.
    const refreshed = await browser.post("/auth/token/refresh", {});
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.result.user.userId).toBe(firstUserId);
    expect(await identities(browser)).toMatchObject({
      identities: [{ provider: "google", email: first.email }],
      hasPassword: false,
      googleConfigured: true,
    });
    // No verification email for an address Google verified.
    await expect(waitForEmail(first.email, "Verify your email", 1500)).rejects.toThrow();
    // The account service made the account from UserRegistered (credits and the welcome flow).
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await browser.get("/api/user/account")).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });

  it("signs the same Google identity in to the same account the next time", async () => {
    google.signInAs(first);
    const browser = new GatewaySession();
    expect(await signInWithGoogle(browser)).toBe("/app/settings");
    expect((await browser.get("/auth/check")).body.result.user.userId).toBe(firstUserId);
    expect(google.counts.tokens).toBeGreaterThanOrEqual(2);
  });

  it("refuses a Google account whose email Google has not verified", async () => {
    google.signInAs(account(uniqueEmail("unverified"), false));
    const browser = new GatewaySession();
    expect(await signInWithGoogle(browser)).toBe("/signin?error=google_unverified");
    expect(browser.cookies.has("crafter_at")).toBe(false);
  });

  it("refuses an altered state, an altered nonce, a callback in another browser, and a replayed callback", async () => {
    google.signInAs(first);
    const browser = new GatewaySession();
    const flow = await throughGoogle(browser);
    const altered = new URL(flow.callback);
    altered.searchParams.set("state", `${flow.callback.searchParams.get("state")}x`);
    expect(await back(browser, altered)).toBe("/signin?error=google_invalid");

    const other = await throughGoogle(browser);
    expect(await back(new GatewaySession(), other.callback)).toBe("/signin?error=google_invalid");

    const nonce = await throughGoogle(browser, (authorize) =>
      authorize.searchParams.set("nonce", "chosen-by-attacker"),
    );
    expect(await back(browser, nonce.callback)).toBe("/signin?error=google_invalid");
    expect(browser.cookies.has("crafter_at")).toBe(false);

    const good = await throughGoogle(browser);
    expect(await back(browser, good.callback)).toBe("/app/settings");
    const replay = new GatewaySession();
    replay.cookies.set("crafter_gflow", "whatever");
    expect(await back(replay, good.callback)).toBe("/signin?error=google_invalid");
  });

  it("answers a declined consent with a message, not an error page", async () => {
    google.deny();
    const browser = new GatewaySession();
    expect(await signInWithGoogle(browser)).toBe("/signin?error=google_denied");
  });
});

describe("linking to an account with a password", () => {
  let owner: { session: GatewaySession; email: string };
  let userId: string;
  const identityFor = (email: string) => account(email);
  let victimIdentity: GoogleAccount;

  beforeAll(async () => {
    owner = await verifiedSession("google-link");
    userId = (await owner.session.get("/auth/check")).body.result.user.userId;
    victimIdentity = identityFor(owner.email);
  });

  it("does not sign a Google identity with the account's email in before a password sign-in (no pre-hijacking)", async () => {
    google.signInAs(victimIdentity);
    const browser = new GatewaySession();
    expect(await signInWithGoogle(browser)).toBe(`/signin?google=link&email=${encodeURIComponent(owner.email)}`);
    expect(browser.cookies.has("crafter_at")).toBe(false);
    expect(browser.cookies.get("crafter_glink")).toBeTruthy();
    // Still not signed in by Google alone, however often it is tried.
    expect(await signInWithGoogle(new GatewaySession())).toContain("/signin?google=link");
    // A wrong password links nothing.
    expect((await browser.post("/auth/signin", { email: owner.email, password: "wrong-password" })).status).toBe(401);
    expect((await identities(owner.session)).identities).toEqual([]);
    // Another account's sign-in in that browser drops the pending link.
    const other = await verifiedSession("google-other");
    const elsewhere = new GatewaySession();
    google.signInAs(victimIdentity);
    expect(await signInWithGoogle(elsewhere)).toContain("/signin?google=link");
    expect((await elsewhere.post("/auth/signin", { email: other.email, password: "password-123" })).status).toBe(200);
    expect(elsewhere.cookies.has("crafter_glink")).toBe(false);
    expect((await identities(other.session)).identities).toEqual([]);
    expect((await identities(owner.session)).identities).toEqual([]);
  });

  it("links at the account's next password sign-in, then Google signs in to it", async () => {
    google.signInAs(victimIdentity);
    const browser = new GatewaySession();
    expect(await signInWithGoogle(browser)).toContain("/signin?google=link");
    const signedIn = await browser.post("/auth/signin", { email: owner.email, password: "password-123" });
    expect(signedIn.status).toBe(200);
    expect(browser.cookies.has("crafter_glink")).toBe(false);
    expect(await identities(browser)).toMatchObject({
      identities: [{ provider: "google", email: owner.email }],
      hasPassword: true,
    });
    const later = new GatewaySession();
    expect(await signInWithGoogle(later)).toBe("/app/settings");
    expect((await later.get("/auth/check")).body.result.user.userId).toBe(userId);
  });

  it("unlinks Google from an account with a password, and refuses it where Google is the only way in", async () => {
    const unlinked = await owner.session.request("DELETE", "/api/user/identities/google");
    expect([unlinked.status, unlinked.body.error]).toEqual([200, null]);
    expect((await identities(owner.session)).identities).toEqual([]);
    expect((await owner.session.request("DELETE", "/api/user/identities/google")).status).toBe(404);
    google.signInAs(victimIdentity);
    expect(await signInWithGoogle(new GatewaySession())).toContain("/signin?google=link");

    const googleOnly = account(uniqueEmail("only"));
    google.signInAs(googleOnly);
    const browser = new GatewaySession();
    await signInWithGoogle(browser);
    const refused = await browser.request("DELETE", "/api/user/identities/google");
    expect(refused.status).toBe(409);
    expect(refused.body.errorMessage).toContain("only way to sign in");
    expect((await identities(browser)).identities).toHaveLength(1);
  });

  it("takes over an unverified sign-up of the address: its unproven password stops working", async () => {
    const email = uniqueEmail("squatted");
    const squatter = new GatewaySession();
    await squatter.post("/auth/signup", { email, password: "squatter-pass-1" });
    await waitForEmail(email, "Verify your email");
    const squatterIn = await squatter.post("/auth/signin", { email, password: "squatter-pass-1" });
    expect(squatterIn.status).toBe(200);

    google.signInAs(account(email));
    const owner = new GatewaySession();
    expect(await signInWithGoogle(owner)).toBe("/app/settings");
    expect((await owner.get("/auth/check")).body.result.user).toMatchObject({ email, email_verified: true });
    expect((await new GatewaySession().post("/auth/signin", { email, password: "squatter-pass-1" })).status).toBe(401);
    expect((await squatter.post("/auth/token/refresh", {})).status).toBe(401);
    // The squatter's verification link no longer works either.
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
    expect((await new GatewaySession().post("/auth/verify", { token: link })).status).toBe(400);
  });
});
