import {
  GatewaySession,
  linkFrom,
  type MailpitMessage,
  stackEnv,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { afterAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Session and sign-up attacks, each tried as an attacker would, on the real stack.
// The test profile trusts one proxy hop (TRUST_PROXY=1), so a test names its client IP in
// X-Forwarded-For; the per-address mail budget keeps its default (3 an hour).

jest.setTimeout(60_000);

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter_test";
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const authDb = mongoose.createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
  dbName: `${namespace}_auth`,
});
const MAIL_LIMIT_PER_ADDRESS = 3;

afterAll(async () => {
  await authDb.close();
});

const from = (ip: string) => ({ "x-forwarded-for": ip });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every mail to `to` whose subject contains `subject`, newest first (Mailpit's order). */
async function mailsTo(to: string, subject: string): Promise<MailpitMessage[]> {
  const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  const body = (await response.json()) as { messages: MailpitMessage[] };
  const hits = body.messages.filter((message) => message.Subject.includes(subject));
  return Promise.all(
    hits.map(async (hit) => (await (await fetch(`${mailpit}/api/v1/message/${hit.ID}`)).json()) as MailpitMessage),
  );
}

/** Waits until `count` mails arrived, then a little longer for stragglers; returns them all. */
async function settledMails(to: string, subject: string, count: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await mailsTo(to, subject)).length < count) await sleep(250);
  await sleep(3000);
  return mailsTo(to, subject);
}

const tokenOf = (message: MailpitMessage) => linkFrom(message, "/verify").searchParams.get("token")!;

async function signUpAndVerify(session: GatewaySession, email: string, password: string) {
  expect((await session.post("/auth/signup", { email, password })).status).toBe(200);
  const verified = await session.post("/auth/verify", {
    token: tokenOf(await waitForEmail(email, "Verify your email")),
  });
  expect(verified.status).toBe(200);
}

describe("account pre-hijacking", () => {
  it("the victim's verification opens the account with her password, not the attacker's", async () => {
    const email = uniqueEmail("victim");
    const attacker = new GatewaySession();
    expect((await attacker.post("/auth/signup", { email, password: "attacker-password" })).status).toBe(200);
    // The attacker even holds a session of the unverified account.
    expect((await attacker.post("/auth/signin", { email, password: "attacker-password" })).status).toBe(200);
    const attackerRefresh = attacker.cookies.get("crafter_rt")!;
    await waitForEmail(email, "Verify your email");

    const victim = new GatewaySession();
    const answer = await victim.post("/auth/signup", { email, password: "victim-password" });
    expect(answer.status).toBe(200);
    const mails = await settledMails(email, "Verify your email", 2);
    expect(mails).toHaveLength(2);
    const [victimsMail, attackersMail] = mails; // newest first
    const verified = await victim.post("/auth/verify", { token: tokenOf(victimsMail!) });
    expect(verified.status).toBe(200);
    expect(verified.body.result).toEqual({ email }); // no protobuf "$typeName"

    expect((await new GatewaySession().post("/auth/signin", { email, password: "attacker-password" })).status).toBe(
      401,
    );
    const own = await victim.post("/auth/signin", { email, password: "victim-password" });
    expect(own.status).toBe(200);
    expect(own.body.result.user.email_verified).toBe(true);

    // The attacker's session of the unverified account is gone, and so is his link.
    expect((await attacker.get("/api/user/account")).status).toBe(401);
    const replay = new GatewaySession();
    replay.cookies.set("crafter_rt", attackerRefresh);
    expect((await replay.post("/auth/token/refresh", {})).status).toBe(401);
    const late = await new GatewaySession().post("/auth/verify", { token: tokenOf(attackersMail!) });
    expect(late.body.error.code).toBe("InvalidToken");
  });

  it("an unverified account expires: it cannot sign in and its address signs up anew", async () => {
    const email = uniqueEmail("expiring");
    await new GatewaySession().post("/auth/signup", { email, password: "first-password" });
    await waitForEmail(email, "Verify your email");
    const user = await authDb.collection("users").findOne({ email });
    expect(user?.expiresAt).toBeInstanceOf(Date);
    await authDb.collection("users").updateOne({ email }, { $set: { expiresAt: new Date(Date.now() - 1000) } });

    const signIn = await new GatewaySession().post("/auth/signin", { email, password: "first-password" });
    expect(signIn.status).toBe(401);
    expect(signIn.body.error.code).toBe("InvalidCredentials");

    await new GatewaySession().post("/auth/signup", { email, password: "second-password" });
    const renewed = await authDb.collection("users").findOne({ email });
    expect(renewed?._id).not.toEqual(user?._id);
    expect(renewed?.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("unverified users", () => {
  it("sign in only to be told to verify: every /api call is refused", async () => {
    const email = uniqueEmail("unverified-api");
    const session = new GatewaySession();
    await session.post("/auth/signup", { email, password: "password-123" });
    expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
    for (const path of ["/api/user/account", "/api/app/initial", "/api/projects"]) {
      const response = await session.get(path);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe("EMAIL_NOT_VERIFIED");
    }
  });

  it("can ask for the link again; resends are limited per address and answer alike", async () => {
    const email = uniqueEmail("resend");
    await new GatewaySession().post("/auth/signup", { email, password: "password-123" });
    await waitForEmail(email, "Verify your email");
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await new GatewaySession().post("/auth/verify/resend", { email }));
    const unknown = await new GatewaySession().post("/auth/verify/resend", { email: uniqueEmail("nobody") });
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(unknown.body).toEqual(answers[0]!.body);
    const mails = await settledMails(email, "Verify your email", MAIL_LIMIT_PER_ADDRESS);
    expect(mails).toHaveLength(MAIL_LIMIT_PER_ADDRESS);
    // The newest link works and opens the account with the sign-up's password.
    expect((await new GatewaySession().post("/auth/verify", { token: tokenOf(mails[0]!) })).status).toBe(200);
    expect((await new GatewaySession().post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  });
});

describe("mail flooding", () => {
  it("25 forgot-password requests for one address send at most 3 mails, with neutral answers", async () => {
    const email = uniqueEmail("flood");
    await signUpAndVerify(new GatewaySession(), email, "password-123");
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await new GatewaySession().post("/auth/password/forgot", { email }));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const unknown = await new GatewaySession().post("/auth/password/forgot", { email: uniqueEmail("nobody") });
    expect(unknown.body).toEqual(answers[24]!.body);
    // The sign-up's verification mail took one of the address's three.
    const resets = await settledMails(email, "Reset your Crafter password", MAIL_LIMIT_PER_ADDRESS - 1);
    expect(resets.length).toBe(MAIL_LIMIT_PER_ADDRESS - 1);
  });

  it("25 sign-ups for one address send at most 3 mails", async () => {
    const email = uniqueEmail("signup-flood");
    for (let i = 0; i < 25; i++) {
      expect((await new GatewaySession().post("/auth/signup", { email, password: `password-${i}-x` })).status).toBe(
        200,
      );
    }
    expect((await settledMails(email, "Verify your email", MAIL_LIMIT_PER_ADDRESS)).length).toBe(
      MAIL_LIMIT_PER_ADDRESS,
    );
  });
});

describe("sign-in lock-out", () => {
  it("locks the (account, IP) pair only: the owner from another IP signs in; a 429 carries Retry-After and RateLimit", async () => {
    const email = uniqueEmail("lockout");
    await signUpAndVerify(new GatewaySession(), email, "owner-password");
    const attacker = "203.0.113.7";
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const guess = await new GatewaySession().request(
        "POST",
        "/auth/signin",
        { email, password: "guess" },
        from(attacker),
      );
      statuses.push(guess.status);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    const locked = await new GatewaySession().request(
      "POST",
      "/auth/signin",
      { email, password: "owner-password" },
      from(attacker),
    );
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("RATE_LIMITED");
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(locked.headers.get("ratelimit-policy")).toBe('"signin";q=10;w=900');
    expect(locked.headers.get("ratelimit")).toMatch(/^"signin";r=0;t=\d+$/);

    const owner = await new GatewaySession().request(
      "POST",
      "/auth/signin",
      { email, password: "owner-password" },
      from("198.51.100.23"),
    );
    expect(owner.status).toBe(200);
  });
});

describe("refresh grace window", () => {
  async function signedIn(userAgent: string) {
    const email = uniqueEmail("grace");
    const session = new GatewaySession();
    await signUpAndVerify(session, email, "password-123");
    await session.request("POST", "/auth/signin", { email, password: "password-123" }, { "user-agent": userAgent });
    return session;
  }
  const refreshWith = (token: string, userAgent: string) => {
    const tab = new GatewaySession();
    tab.cookies.set("crafter_rt", token);
    return tab.request("POST", "/auth/token/refresh", {}, { "user-agent": userAgent });
  };

  it("allows one reuse from the same client; the second replay revokes the family", async () => {
    const session = await signedIn("Browser/1");
    const first = session.cookies.get("crafter_rt")!;
    const rotated = await refreshWith(first, "Browser/1");
    expect(rotated.status).toBe(200);
    const next = rotated.headers
      .getSetCookie()
      .find((line) => line.startsWith("crafter_rt="))!
      .split(";")[0]!
      .slice("crafter_rt=".length);

    expect((await refreshWith(first, "Browser/1")).status).toBe(200); // the parallel tab
    const replay = await refreshWith(first, "Browser/1");
    expect(replay.status).toBe(401);
    expect((await refreshWith(next, "Browser/1")).status).toBe(401); // the family is gone
    expect((await session.get("/api/user/account")).status).toBe(401); // and its access tokens
  });

  it("refuses a reuse inside the window from another client, and revokes the family", async () => {
    const session = await signedIn("Browser/1");
    const first = session.cookies.get("crafter_rt")!;
    expect((await refreshWith(first, "Browser/1")).status).toBe(200);
    expect((await refreshWith(first, "Thief/9")).status).toBe(401);
    expect((await session.get("/api/user/account")).status).toBe(401);
  });

  it("parallel refreshes with one token: at most two succeed", async () => {
    const session = await signedIn("node");
    const shared = session.cookies.get("crafter_rt")!;
    const statuses = (await Promise.all(Array.from({ length: 4 }, () => refreshWith(shared, "node")))).map(
      (response) => response.status,
    );
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
  });
});

describe("access tokens are denied at once", () => {
  it("after sign-out", async () => {
    const email = uniqueEmail("denied");
    const session = new GatewaySession();
    await signUpAndVerify(session, email, "password-123");
    await session.post("/auth/signin", { email, password: "password-123" });
    const copy = new GatewaySession();
    copy.cookies.set("crafter_at", session.cookies.get("crafter_at")!);
    expect((await copy.get("/api/user/account")).status).toBe(200);
    expect((await session.post("/auth/signout", {})).status).toBe(200);
    const after = await copy.get("/api/user/account");
    expect(after.status).toBe(401);
    expect((await copy.get("/auth/check")).status).toBe(401);
    // Bearer, as an API client would send it, is refused too.
    const bearer = await new GatewaySession().request("GET", "/api/user/account", undefined, {
      authorization: `Bearer ${session.cookies.get("crafter_at") ?? copy.cookies.get("crafter_at")}`,
    });
    expect(bearer.status).toBe(401);
  });

  it("after a password reset", async () => {
    const email = uniqueEmail("denied-reset");
    const session = new GatewaySession();
    await signUpAndVerify(session, email, "password-123");
    await session.post("/auth/signin", { email, password: "password-123" });
    expect((await session.get("/api/user/account")).status).toBe(200);
    await new GatewaySession().post("/auth/password/forgot", { email });
    const token = linkFrom(
      await waitForEmail(email, "Reset your Crafter password"),
      "/reset-password",
    ).searchParams.get("token")!;
    expect(
      (await new GatewaySession().post("/auth/password/reset", { token, password: "a new password" })).status,
    ).toBe(200);
    expect((await session.get("/api/user/account")).status).toBe(401);
    const fresh = new GatewaySession();
    expect((await fresh.post("/auth/signin", { email, password: "a new password" })).status).toBe(200);
    expect((await fresh.get("/api/user/account")).status).toBe(200);
  });
});

describe("smaller findings", () => {
  it("createProject refuses a protocol-relative website URL", async () => {
    const email = uniqueEmail("url");
    const session = new GatewaySession();
    await signUpAndVerify(session, email, "password-123");
    await session.post("/auth/signin", { email, password: "password-123" });
    const response = await session.post("/api/projects/createProject", {
      name: "Bakery",
      description: "Bread",
      websiteUrl: "//example.com",
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields?.websiteUrl).toBe("Invalid URL");
  });

  it.each([
    "multiple..dots@stillinvalid.com",
    "ends.with.dot.@gmail.com",
    "foo@_bar.com",
    '"foobar"@example.com',
    '"foo\\@bar"@example.com',
  ])("refuses the email %s at sign-up", async (email) => {
    const response = await new GatewaySession().post("/auth/signup", { email, password: "password-123" });
    expect(response.status).toBe(400);
    expect(response.body.error.fields.email).toBe("Invalid email");
  });
});
