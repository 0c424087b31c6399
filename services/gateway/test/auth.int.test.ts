import { createHash } from "node:crypto";
import { GatewaySession, linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Every auth flow through the gateway, on the real servers: Kafka carries the events to the
// notifications service, which mails through Mailpit; tokens are read back from Mailpit's API.

// Mail goes through Kafka and the notifications service: seconds on a busy machine.
jest.setTimeout(60_000);

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter_test";
const authDb = mongoose.createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
  dbName: `${namespace}_auth`,
});
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

afterAll(async () => {
  await authDb.close();
});

async function signUpAndVerify(session: GatewaySession, email: string, password = "correct horse battery") {
  expect((await session.post("/auth/signup", { email, password })).status).toBe(200);
  const mail = await waitForEmail(email, "Verify your email");
  const token = linkFrom(mail, "/verify").searchParams.get("token")!;
  const verified = await session.post("/auth/verify", { token });
  expect(verified.status).toBe(200);
  expect(verified.body.result.email).toBe(email);
  return token;
}

describe("sign-up and verification", () => {
  it("mails a verification link through Kafka and Mailpit, and the link verifies once", async () => {
    const session = new GatewaySession();
    const email = uniqueEmail("verify");
    const token = await signUpAndVerify(session, email);

    const again = await session.post("/auth/verify", { token });
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe("InvalidToken");

    const signIn = await session.post("/auth/signin", { email, password: "correct horse battery" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.result.user).toMatchObject({ email, role: "owner", email_verified: true });
    const check = await session.get("/auth/check");
    expect(check.body.result.user).toMatchObject({ email, email_verified: true, display_name: "Crafter" });
    expect(check.body.result.user.exp - check.body.result.user.iat).toBe(3600);
  });

  it("finishes a verification whose token use was recorded by a process that died before the rest", async () => {
    const session = new GatewaySession();
    const email = uniqueEmail("halfway");
    expect((await session.post("/auth/signup", { email, password: "correct horse battery" })).status).toBe(200);
    const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
    // What auth leaves when it is killed right after recording the use: the marker, nothing else.
    await authDb.collection("one_time_token_uses").insertOne({ _id: sha256(token) as never, at: new Date() });
    const notYet = await session.post("/auth/signin", { email, password: "correct horse battery" });
    expect(notYet.body.result.user).toMatchObject({ email, email_verified: false });

    const verified = await session.post("/auth/verify", { token });
    expect(verified.status).toBe(200);
    expect(verified.body.result.email).toBe(email);
    const signIn = await session.post("/auth/signin", { email, password: "correct horse battery" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.result.user).toMatchObject({ email, email_verified: true });
    // Finished now: the link is spent.
    const again = await session.post("/auth/verify", { token });
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe("InvalidToken");
  });

  it("answers alike for a new and an existing email", async () => {
    const email = uniqueEmail("twice");
    const first = await new GatewaySession().post("/auth/signup", { email, password: "password-one" });
    const second = await new GatewaySession().post("/auth/signup", { email, password: "password-two" });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
  });

  it("refuses an expired verification token", async () => {
    const email = uniqueEmail("expired");
    await new GatewaySession().post("/auth/signup", { email, password: "password-123" });
    const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
    await authDb
      .collection("one_time_tokens")
      .updateOne({ _id: sha256(token) as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await new GatewaySession().post("/auth/verify", { token });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: "InvalidToken" } });
  });

  it("rejects bad sign-up input with field messages", async () => {
    const response = await new GatewaySession().post("/auth/signup", { email: "not-an-email", password: "short" });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: "CR_ERR_BAD_REQUEST",
      fields: { email: "Invalid email", password: "Password must be at least 8 characters" },
    });
    const missing = await new GatewaySession().post("/auth/signup", { password: "password-123" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.email).toBe("Email is required");
  });
});

describe("sign-in", () => {
  it("answers alike for an unknown email and a wrong password", async () => {
    const email = uniqueEmail("known");
    await new GatewaySession().post("/auth/signup", { email, password: "password-123" });
    const wrong = await new GatewaySession().post("/auth/signin", { email, password: "wrong-password" });
    const unknown = await new GatewaySession().post("/auth/signin", { email: uniqueEmail("ghost"), password: "x" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it("lets an unverified user sign in with email_verified false", async () => {
    const email = uniqueEmail("unverified");
    const session = new GatewaySession();
    await session.post("/auth/signup", { email, password: "password-123" });
    const signIn = await session.post("/auth/signin", { email, password: "password-123" });
    expect(signIn.status).toBe(200);
    expect((await session.get("/auth/check")).body.result.user.email_verified).toBe(false);
  });

  it("rate limits failed sign-ins per account and IP in Redis", async () => {
    const email = uniqueEmail("limited");
    await new GatewaySession().post("/auth/signup", { email, password: "password-123" });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await new GatewaySession().post("/auth/signin", { email, password: "bad-guess" })).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Even the right password is refused while the account is locked.
    const right = await new GatewaySession().post("/auth/signin", { email, password: "password-123" });
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe("RATE_LIMITED");
  });
});

describe("refresh tokens", () => {
  it("rotate on every use, and a reused one revokes its family", async () => {
    const email = uniqueEmail("rotate");
    const session = new GatewaySession();
    await signUpAndVerify(session, email);
    await session.post("/auth/signin", { email, password: "correct horse battery" });
    const first = session.cookies.get("crafter_rt")!;

    const refreshed = await session.post("/auth/token/refresh", {});
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.result.user.email).toBe(email);
    const second = session.cookies.get("crafter_rt")!;
    expect(second).not.toBe(first);

    // Pretend the first token was used a minute ago (outside the parallel-tab grace window).
    await authDb
      .collection("refresh_token_uses")
      .updateOne({ _id: sha256(first) as never }, { $set: { at: new Date(Date.now() - 60_000) } });
    const thief = new GatewaySession();
    thief.cookies.set("crafter_rt", first);
    const reuse = await thief.post("/auth/token/refresh", {});
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe("UNAUTHENTICATED");

    // The whole family is gone: the legitimate latest token no longer works either.
    const victim = await session.post("/auth/token/refresh", {});
    expect(victim.status).toBe(401);
  });

  it("tolerates a second tab refreshing with the same token, once", async () => {
    const email = uniqueEmail("tabs");
    const session = new GatewaySession();
    await signUpAndVerify(session, email);
    await session.post("/auth/signin", { email, password: "correct horse battery" });
    const shared = session.cookies.get("crafter_rt")!;
    const tab = () => {
      const client = new GatewaySession();
      client.cookies.set("crafter_rt", shared);
      return client.post("/auth/token/refresh", {});
    };
    // One reuse inside the grace window (tabs racing on one cookie) from the same client; a third use revokes.
    expect((await tab()).status).toBe(200);
    expect((await tab()).status).toBe(200);
    expect((await tab()).status).toBe(401);
  });

  it("ends with sign-out: the session and its refresh token stop working", async () => {
    const email = uniqueEmail("signout");
    const session = new GatewaySession();
    await signUpAndVerify(session, email);
    await session.post("/auth/signin", { email, password: "correct horse battery" });
    const refresh = session.cookies.get("crafter_rt")!;
    expect((await session.post("/auth/signout", {})).status).toBe(200);
    expect(session.cookies.has("crafter_at")).toBe(false);
    expect((await session.get("/auth/check")).status).toBe(401);
    const replay = new GatewaySession();
    replay.cookies.set("crafter_rt", refresh);
    expect((await replay.post("/auth/token/refresh", {})).status).toBe(401);
  });
});

describe("password reset", () => {
  it("mails a single-use reset link; the new password works and the old one does not", async () => {
    const email = uniqueEmail("reset");
    const session = new GatewaySession();
    await signUpAndVerify(session, email);

    const known = await session.post("/auth/password/forgot", { email });
    const unknown = await session.post("/auth/password/forgot", { email: uniqueEmail("nobody") });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);

    const token = linkFrom(
      await waitForEmail(email, "Reset your Crafter password"),
      "/reset-password",
    ).searchParams.get("token")!;
    expect((await session.post("/auth/password/reset", { token, password: "a brand new secret" })).status).toBe(200);
    const reused = await session.post("/auth/password/reset", { token, password: "another new secret" });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe("InvalidToken");

    expect((await session.post("/auth/signin", { email, password: "correct horse battery" })).status).toBe(401);
    expect((await session.post("/auth/signin", { email, password: "a brand new secret" })).status).toBe(200);
  });

  it("refuses an expired reset token", async () => {
    const email = uniqueEmail("reset-expired");
    const session = new GatewaySession();
    await signUpAndVerify(session, email);
    await session.post("/auth/password/forgot", { email });
    const token = linkFrom(
      await waitForEmail(email, "Reset your Crafter password"),
      "/reset-password",
    ).searchParams.get("token")!;
    await authDb
      .collection("one_time_tokens")
      .updateOne({ _id: sha256(token) as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await session.post("/auth/password/reset", { token, password: "a brand new secret" });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("InvalidToken");
  });
});
