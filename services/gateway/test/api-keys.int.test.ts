import { GatewaySession, linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Personal API keys (DESIGN section 4, "Third parties") through the gateway on the real stack:
// created in settings with a browser session, scoped, audited, revocable, never for /auth or keys.

jest.setTimeout(60_000);

const env = stackEnv();
const authDb = mongoose.createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
  dbName: `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_auth`,
});
const session = new GatewaySession();

beforeAll(async () => {
  const email = uniqueEmail("keys");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

afterAll(async () => {
  await authDb.close();
});

/** A client that only has the key: no cookies, no Origin (a script, not a browser). */
const withKey = (key: string, method: string, path: string, body?: unknown) =>
  new GatewaySession().request(method, path, body, {
    authorization: `Bearer ${key}`,
    ...(body === undefined ? {} : { "content-type": "application/json" }),
  });

async function createKey(scopes: string[], name = "script") {
  const created = await session.post("/api/settings/apiKeys", { name, scopes });
  expect(created.status).toBe(201);
  return created.body.result as { apiKey: { id: string; prefix: string; scopes: string[] }; secret: string };
}

describe("personal API keys", () => {
  it("are shown once, listed without the secret, and stored hashed", async () => {
    const { apiKey, secret } = await createKey(["read"], "listing");
    expect(secret).toMatch(/^crk_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(apiKey.prefix)).toBe(true);
    const list = await session.get("/api/settings/apiKeys");
    const listed = list.body.result.apiKeys.find((key: { id: string }) => key.id === apiKey.id);
    expect(listed).toMatchObject({ name: "listing", scopes: ["read"], revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const stored = await authDb.collection("api_keys").findOne({ id: apiKey.id });
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it("refuse bad input: no scope, an unknown scope, no name", async () => {
    expect((await session.post("/api/settings/apiKeys", { name: "x", scopes: [] })).status).toBe(400);
    expect((await session.post("/api/settings/apiKeys", { name: "x", scopes: ["admin"] })).status).toBe(400);
    expect((await session.post("/api/settings/apiKeys", { name: " ", scopes: ["read"] })).status).toBe(400);
  });

  it("a read key reads but cannot craft, create projects or change settings", async () => {
    const { secret } = await createKey(["read"]);
    const account = await withKey(secret, "GET", "/api/user/account");
    expect(account.status).toBe(200);
    expect(account.body.result.email).toContain("@example.test");
    expect((await withKey(secret, "GET", "/api/workflowsV2")).status).toBe(200);

    const craft = await withKey(secret, "POST", "/api/workflowsV2", { workflowName: "BlogPost" });
    expect(craft.status).toBe(403);
    expect(craft.body.error.code).toBe("FORBIDDEN");
    expect(craft.body.errorMessage).toContain('"crafts"');
    const project = await withKey(secret, "POST", "/api/projects/createProject", { name: "x", description: "y" });
    expect(project.status).toBe(403);
    expect((await withKey(secret, "PUT", "/api/userSettings/settings", { theme: "dark" })).status).toBe(403);
  });

  it("a projects key creates a project", async () => {
    const { secret } = await createKey(["read", "projects"]);
    const created = await withKey(secret, "POST", "/api/projects/createProject", {
      name: "Key Bakery",
      description: "Made through an API key",
    });
    expect(created.status).toBe(201);
  });

  it("never reach /auth or the routes that manage keys", async () => {
    const { secret } = await createKey(["read", "crafts", "projects", "settings", "ai"]);
    expect((await withKey(secret, "GET", "/auth/check")).status).toBe(401);
    expect((await withKey(secret, "POST", "/auth/token/refresh", {})).status).toBe(401);
    const list = await withKey(secret, "GET", "/api/settings/apiKeys");
    expect(list.status).toBe(403);
    const create = await withKey(secret, "POST", "/api/settings/apiKeys", { name: "more", scopes: ["read"] });
    expect(create.status).toBe(403);
  });

  it("fail at once when revoked, and every creation, use and revocation is audited", async () => {
    const { apiKey, secret } = await createKey(["read"], "revoked");
    expect((await withKey(secret, "GET", "/api/user/account")).status).toBe(200);
    const revoked = await session.request("DELETE", `/api/settings/apiKeys/${apiKey.id}`, undefined, {
      origin: session.baseUrl,
    });
    expect(revoked.status).toBe(200);
    const after = await withKey(secret, "GET", "/api/user/account");
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("UNAUTHENTICATED");
    const listed = (await session.get("/api/settings/apiKeys")).body.result.apiKeys.find(
      (key: { id: string }) => key.id === apiKey.id,
    );
    expect(listed.revokedAt).not.toBeNull();
    expect(listed.lastUsedAt).not.toBeNull();

    const audit = await authDb.collection("api_key_audit").find({ keyId: apiKey.id }).toArray();
    const actions = audit.sort((a, b) => a.at.getTime() - b.at.getTime()).map((entry) => entry.action);
    expect(actions).toEqual(["created", "used", "revoked", "refused"]);
    expect(audit.find((entry) => entry.action === "used")).toMatchObject({ method: "GET", path: "/api/user/account" });
  });

  it("an unknown key and another user's key id are refused", async () => {
    expect((await withKey("crk_not-a-real-key", "GET", "/api/user/account")).status).toBe(401);
    const other = await session.request(
      "DELETE",
      "/api/settings/apiKeys/00000000-0000-4000-8000-000000000000",
      undefined,
      {
        origin: session.baseUrl,
      },
    );
    expect(other.status).toBe(404);
  });

  it("have their own rate limit: a 429 with Retry-After and RateLimit headers", async () => {
    const { secret } = await createKey(["read"], "busy");
    let limited: Awaited<ReturnType<typeof withKey>> | undefined;
    for (let batch = 0; batch < 10 && !limited; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => withKey(secret, "GET", "/api/flags/user")));
      limited = answers.find((answer) => answer.status === 429);
    }
    expect(limited?.body.error.code).toBe("RATE_LIMITED");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited?.headers.get("ratelimit-policy")).toBe('"api-key";q=120;w=60');
    expect(limited?.headers.get("ratelimit")).toMatch(/^"api-key";r=0;t=\d+$/);
  });
});
