import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createServiceClient } from "@crafter/kit";
import {
  GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import { LocalOAuthServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

// Connections through the gateway and the account service, against the tests' local OAuth
// provider (standing in for Google at GOOGLE_BASE_URL): connect with PKCE and a signed state,
// list without tokens, refresh before expiry (once among concurrent callers, through a 429),
// a refused refresh, disconnect with revocation.
jest.setTimeout(120_000);

const env = stackEnv();
const provider = new LocalOAuthServer({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  account: { sub: "g-42", email: "owner@bikes.example", name: "Bikes Owner" },
});
const tokens = createServiceClient(IntegrationsService, env.ACCOUNT_URL ?? "", {
  timeoutMs: 30_000,
  as: "service",
  credentials: stackServiceCredentials("notifications"),
});

let owner: GatewaySession;
let ownerId: string;
let admin: GatewaySession;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

async function project(name: string): Promise<string> {
  const created = await owner.post("/api/projects/createProject", { name, description: "Bikes for the town" });
  expect(created.status).toBe(201);
  return created.body.result.project.projectId as string;
}

/** Follows the connect flow as the browser does: start, the provider's consent, the callback. */
async function connect(projectId: string): Promise<{ location: string; callback: string }> {
  const started = await owner.post(`/api/integrations/google/connect?projectId=${projectId}`, {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.result.authorizeUrl);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  // The browser reaches the provider's host; here it is the local server's name, pinned for the services.
  authorize.hostname = "127.0.0.1";
  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = consent.headers.get("location")!;
  expect(callback.startsWith(`${env.PUBLIC_ORIGIN ?? gatewayUrl()}/api/integrations/google/callback?`)).toBe(true);
  const back = await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), { redirect: "manual" });
  expect(back.status).toBe(302);
  return { location: back.headers.get("location")!, callback };
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function listed(projectId: string) {
  const list = await owner.get(`/api/integrations?projectId=${projectId}`);
  expect(list.status).toBe(200);
  return list;
}

beforeAll(async () => {
  await provider.start(Number(new URL(env.GOOGLE_BASE_URL ?? "http://x:28045").port));
  [{ session: owner }, admin] = await Promise.all([verifiedSession("integrations"), signUpAdmin()]);
  ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  for (const flag of ["google_integration", "meta_integration"]) {
    expect((await admin.put(`/api/admin/users/${ownerId}/flags`, { flag, enabled: true })).status).toBe(200);
  }
});

afterAll(() => provider.stop());

describe("connections", () => {
  let projectId: string;
  let firstAccess: string;

  it("lists only the integrations whose flag is on, and which are configured on this server", async () => {
    projectId = await project("Town Bikes");
    const result = (await listed(projectId)).body.result as {
      provider: string;
      configured: boolean;
      connection?: unknown;
    }[];
    expect(result.map((item) => item.provider)).toEqual(["google", "meta"]);
    expect(result.find((item) => item.provider === "google")).toMatchObject({ configured: true, kind: "oauth2" });
    // The test stack configures Meta against the local Graph API (a provider without a client is
    // "not configured": services/account/test/connections.test.ts).
    expect(result.find((item) => item.provider === "meta")).toMatchObject({ configured: true });
    expect(result.every((item) => item.connection === undefined)).toBe(true);
    const tiktok = await owner.post(`/api/integrations/tiktok/connect?projectId=${projectId}`, {});
    expect(tiktok.status).toBe(403);
    expect(tiktok.body.error.code).toBe("FEATURE_DISABLED");
  });

  it("connects with PKCE and a signed state, and lists who it is connected as, never a token", async () => {
    provider.expiresIn = 60; // inside the 5-minute refresh margin: the first use refreshes
    const { location, callback } = await connect(projectId);
    expect(location).toBe("/app/settings/integrations?connected=google");
    expect(provider.seen.tokenForms.at(-1)).toMatchObject({ grant_type: "authorization_code" });
    expect(provider.seen.tokenForms.at(-1)?.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const list = await listed(projectId);
    const google = (list.body.result as { provider: string; connection?: Record<string, unknown> }[]).find(
      (item) => item.provider === "google",
    );
    expect(google?.connection).toMatchObject({
      state: "connected",
      remoteAccountId: "g-42",
      remoteAccountName: "owner@bikes.example",
      scopes: ["openid", "email", "profile"],
      lastError: "",
    });
    const text = JSON.stringify(list.body);
    expect(text).not.toMatch(/"(at|rt)-[A-Za-z0-9_-]{10,}/);

    // The state is single-use: the same callback again is refused.
    const replay = await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), {
      redirect: "manual",
    });
    expect(replay.headers.get("location")).toBe("/app/settings/integrations?error=invalid_state&provider=google");
  });

  it("refuses an altered state and passes the provider's refusal on", async () => {
    const forged = await fetch(`${gatewayUrl()}/api/integrations/google/callback?code=x&state=abc.def`, {
      redirect: "manual",
    });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toBe("/app/settings/integrations?error=invalid_state&provider=google");
    provider.deny();
    try {
      const other = await project("Denied Bikes");
      expect((await connect(other)).location).toBe("/app/settings/integrations?error=access_denied&provider=google");
      const result = (await listed(other)).body.result as { connection?: unknown }[];
      expect(result.every((item) => item.connection === undefined)).toBe(true);
    } finally {
      provider.deny(false);
    }
  });

  it("gives services a fresh access token, refreshed once among concurrent callers, through a 429", async () => {
    provider.expiresIn = 3600;
    provider.failNext(1, 429, "1");
    const before = provider.seen.refreshes;
    const grants = await Promise.all(
      Array.from({ length: 4 }, () => tokens.getAccessToken({ projectId, provider: "google" })),
    );
    expect(provider.seen.rateLimited).toBeGreaterThanOrEqual(1);
    expect(provider.seen.refreshes - before).toBe(1);
    firstAccess = grants[0]!.accessToken;
    expect(new Set(grants.map((grant) => grant.accessToken)).size).toBe(1);
    expect(provider.isLive(firstAccess)).toBe(true);
    expect(grants[0]!.remoteAccountId).toBe("g-42");
    // Not expiring soon any more: the next call answers the same token without the provider.
    expect((await tokens.getAccessToken({ projectId, provider: "google" })).accessToken).toBe(firstAccess);
    expect(provider.seen.refreshes - before).toBe(1);
  });

  it("answers tokens to services only", async () => {
    const asUser = createClient(IntegrationsService, createGrpcTransport({ baseUrl: env.ACCOUNT_URL ?? "" }));
    const refused = await asUser.getAccessToken({ projectId, provider: "google" }).then(
      () => null,
      (error: unknown) => ConnectError.from(error).code,
    );
    expect(refused).toBe(Code.Unauthenticated);
    const gateway = createServiceClient(IntegrationsService, env.ACCOUNT_URL ?? "", {
      timeoutMs: 30_000,
      as: "service",
      credentials: stackServiceCredentials("gateway"),
    });
    const denied = await gateway.getAccessToken({ projectId, provider: "google" }).then(
      () => null,
      (error: unknown) => ConnectError.from(error).code,
    );
    expect(denied).toBe(Code.PermissionDenied);
  });

  it("disconnects: revokes the grant at the provider, then deletes the tokens", async () => {
    const gone = await owner.request("DELETE", `/api/integrations/google?projectId=${projectId}`);
    expect(gone.status).toBe(200);
    expect(gone.body.result).toEqual({ revoked: true });
    expect(provider.isLive(firstAccess)).toBe(false);
    const result = (await listed(projectId)).body.result as { connection?: unknown }[];
    expect(result.every((item) => item.connection === undefined)).toBe(true);
    const again = await tokens
      .getAccessToken({ projectId, provider: "google" })
      .catch((e) => ConnectError.from(e).code);
    expect(again).toBe(Code.NotFound);
    expect((await owner.request("DELETE", `/api/integrations/google?projectId=${projectId}`)).status).toBe(404);
  });

  it("marks a connection whose refresh the provider refuses as needing reconnecting", async () => {
    const other = await project("Revoked Bikes");
    provider.expiresIn = 60;
    expect((await connect(other)).location).toBe("/app/settings/integrations?connected=google");
    provider.revokeAll(); // the user removed the app at the provider
    const refused = await tokens.getAccessToken({ projectId: other, provider: "google" }).then(
      () => null,
      (error: unknown) => ConnectError.from(error),
    );
    expect(refused?.code).toBe(Code.Aborted);
    const google = (
      (await listed(other)).body.result as { provider: string; connection?: Record<string, unknown> }[]
    ).find((item) => item.provider === "google");
    expect(google?.connection).toMatchObject({
      state: "needs_reconnecting",
      lastError: "invalid_grant: Token has been expired or revoked.",
    });
    // The owner is told in-app once (account's outbox → notifications), however often tokens are asked for.
    await tokens.getAccessToken({ projectId: other, provider: "google" }).catch(() => undefined);
    const isNotice = (n: { title: string }) => n.title === "Google needs reconnecting";
    const bell = await eventually(
      () => owner.get("/api/notifications"),
      (r) => r.body.result.result.some(isNotice),
    );
    const notices = bell.body.result.result.filter(isNotice);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: "warning", link: "/app/settings/integrations", read: false });
    expect(notices[0].body).toContain("invalid_grant: Token has been expired or revoked.");
    // Reconnecting makes it work again.
    provider.expiresIn = 3600;
    expect((await connect(other)).location).toBe("/app/settings/integrations?connected=google");
    const grant = await tokens.getAccessToken({ projectId: other, provider: "google" });
    expect(provider.isLive(grant.accessToken)).toBe(true);
  });

  it("lets a projectAdmin start connecting, and a manager only see", async () => {
    const member = async (role: string) => {
      const { session, email } = await verifiedSession(`integrations-${role.toLowerCase()}`);
      expect((await owner.post(`/api/projects/${projectId}/invites`, { email, role })).status).toBe(201);
      const message = await waitForEmail(email, "You are invited to a project on Crafter");
      const token = linkFrom(message, "/app/invite").searchParams.get("token")!;
      expect((await session.post("/api/projects/invites/accept", { token })).status).toBe(200);
      return session;
    };
    const [projectAdmin, manager] = await Promise.all([member("projectAdmin"), member("manager")]);
    const asManager = await manager.get(`/api/integrations?projectId=${projectId}`);
    expect(asManager.status).toBe(200);
    expect((asManager.body.result as { provider: string }[]).map((item) => item.provider)).toContain("google");
    const refused = await manager.post(`/api/integrations/google/connect?projectId=${projectId}`, {});
    expect(refused.status).toBe(403);
    const started = await projectAdmin.post(`/api/integrations/google/connect?projectId=${projectId}`, {});
    expect(started.status).toBe(200);
    expect(new URL(started.body.result.authorizeUrl).searchParams.get("client_id")).toBe(env.GOOGLE_CLIENT_ID);
  });

  it("lets only the project's owner (or its projectAdmin) reach its connections", async () => {
    const { session: stranger } = await verifiedSession("integrations-stranger");
    const strangerId = (await stranger.get("/auth/check")).body.result.user.userId;
    await admin.put(`/api/admin/users/${strangerId}/flags`, { flag: "google_integration", enabled: true });
    expect((await stranger.get(`/api/integrations?projectId=${projectId}`)).status).toBe(404);
    expect((await stranger.post(`/api/integrations/google/connect?projectId=${projectId}`, {})).status).toBe(404);
  });
});
