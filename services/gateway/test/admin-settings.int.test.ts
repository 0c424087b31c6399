import { randomUUID } from "node:crypto";
import { createServiceClient } from "@crafter/kit";
import {
  GatewaySession,
  linkFrom,
  stackEnv,
  verifiedRpcUser,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { AdminService } from "@crafter/proto/crafter/account/v1/admin_pb";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Admin and account settings on the real stack: admin routes and RPCs refuse non-admins; an
// admin's grant goes through billing's ledger and is audited; a password change ends the other
// sessions; a device is signed out. The test stack makes every verified address at @admins.crafter.test an admin
// (auth's ADMIN_EMAILS, scripts/stack.mjs).

jest.setTimeout(90_000);

const env = stackEnv();
const PASSWORD = "password-123";

async function signUpVerified(email: string, userAgent?: string): Promise<GatewaySession> {
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: PASSWORD });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  await signIn(session, email, userAgent);
  return session;
}

async function signIn(session: GatewaySession, email: string, userAgent?: string, password = PASSWORD) {
  const response = await session.request(
    "POST",
    "/auth/signin",
    { email, password },
    userAgent ? { "user-agent": userAgent } : {},
  );
  expect(response.status).toBe(200);
  return session;
}

let admin: GatewaySession;
let adminEmail: string;
let user: GatewaySession;
let userEmail: string;
let userId: string;

beforeAll(async () => {
  adminEmail = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  [admin, { session: user, email: userEmail }] = await Promise.all([
    signUpVerified(adminEmail),
    verifiedSession("admin-target"),
  ]);
  const check = await user.get("/auth/check");
  userId = check.body.result.user.userId;
});

describe("roles on admin routes and RPCs", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users/someone/credits", { amount: 5, reason: "x", idempotencyKey: "key-12345678" }],
    ["GET", "/api/admin/flags"],
    ["PUT", "/api/admin/flags", { flag: "test", enabled: true }],
    ["GET", "/api/admin/users/someone/flags"],
    ["PUT", "/api/admin/users/someone/flags", { flag: "test", enabled: true }],
    ["GET", "/api/admin/audit"],
    ["GET", "/api/admin/stats"],
  ];

  it("refuses a signed-in owner on every admin route, and lets the admin in", async () => {
    for (const [method, path, body] of routes) {
      const refused = await user.request(method, path, body);
      expect({ path, status: refused.status, code: refused.body.error?.code }).toEqual({
        path,
        status: 403,
        code: "FORBIDDEN",
      });
    }
    expect((await admin.get("/api/admin/users")).status).toBe(200);
    const account = await admin.get("/api/user/account");
    expect(account.body.result.role).toBe("admin");
    expect((await user.get("/api/user/account")).body.result.role).toBe("owner");
  });

  it("refuses a non-admin's token on every AdminService RPC (the service checks the role too)", async () => {
    const { headers } = await verifiedRpcUser("admin-rpc");
    const client = createServiceClient(AdminService, env.ACCOUNT_URL!, { timeoutMs: 10_000 });
    const calls: [string, () => Promise<unknown>][] = [
      ["listUsers", () => client.listUsers({}, { headers })],
      [
        "grantCredits",
        () =>
          client.grantCredits(
            { targetUserId: userId, amount: 5, reason: "x", idempotencyKey: "key-12345678" },
            { headers },
          ),
      ],
      ["getFlags", () => client.getFlags({}, { headers })],
      ["setFlag", () => client.setFlag({ flag: "test", enabled: true }, { headers })],
      ["listAudit", () => client.listAudit({}, { headers })],
      ["getStats", () => client.getStats({}, { headers })],
    ];
    for (const [name, call] of calls) {
      await expect(call().then(() => `${name}: allowed`)).rejects.toMatchObject({ code: 7 }); // PermissionDenied
    }
  });
});

describe("admin actions", () => {
  it("finds a user by an email token, never by a fragment", async () => {
    const local = userEmail.split("@")[0]!;
    const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(local)}`);
    expect(found.status).toBe(200);
    expect(found.body.result.result.map((row: { email: string }) => row.email)).toEqual([userEmail]);
    expect(found.body.result.result[0]).toMatchObject({ userId, role: "owner", status: "active" });
    const fragment = await admin.get(`/api/admin/users?q=${encodeURIComponent(local.slice(0, 6))}`);
    expect(fragment.body.result.result.map((row: { email: string }) => row.email)).not.toContain(userEmail);
  });

  it("grants credits through the ledger once per key, and audits who, what, to whom and when", async () => {
    const before = (await user.get("/api/user/account")).body.result.credits as number;
    const idempotencyKey = randomUUID();
    const body = { amount: 42, reason: "Support goodwill", idempotencyKey };
    const granted = await admin.post(`/api/admin/users/${userId}/credits`, body);
    expect(granted.status).toBe(200);
    expect(granted.body.result).toEqual({ balance: before + 42, granted: true });
    const again = await admin.post(`/api/admin/users/${userId}/credits`, body);
    expect(again.body.result).toEqual({ balance: before + 42, granted: false });
    expect((await user.get("/api/user/account")).body.result.credits).toBe(before + 42);

    const audit = await admin.get("/api/admin/audit?pageSize=100");
    const entries = (audit.body.result.result as { action: string; targetUserId: string; details: string }[]).filter(
      (entry) => entry.action === "credits.grant" && entry.targetUserId === userId,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorEmail: adminEmail });
    expect(JSON.parse(entries[0]!.details)).toEqual({ amount: 42, reason: "Support goodwill" });

    const ledger = await mongoose
      .createConnection(env.MONGODB_URL!, { dbName: `${env.CRAFTER_NAMESPACE}_billing` })
      .asPromise();
    try {
      const grants = await ledger
        .db!.collection("ledger_entries")
        .find({ userId, kind: "grant", amount: 42 })
        .toArray();
      expect(grants).toHaveLength(1);
      expect(grants[0]!.source).toMatch(/^admin:/);
    } finally {
      await ledger.close();
    }
  });

  it("turns a flag on for one user, who sees it in /api/flags/user, and audits it", async () => {
    const flagsBefore = await user.get("/api/flags/user");
    expect(flagsBefore.body.result.enabledFeatures).not.toContain("first_promoter");
    const set = await admin.put(`/api/admin/users/${userId}/flags`, { flag: "first_promoter", enabled: true });
    expect(set.status).toBe(200);
    expect((await user.get("/api/flags/user")).body.result.enabledFeatures).toContain("first_promoter");
    expect((await user.get("/api/app/initial")).body.result.featureFlag.enabledFeatures).toContain("first_promoter");
    const states = (await admin.get(`/api/admin/users/${userId}/flags`)).body.result.flags as { name: string }[];
    expect(states.find((flag) => flag.name === "first_promoter")).toMatchObject({ enabled: true, override: "on" });
    const unknown = await admin.put(`/api/admin/users/${userId}/flags`, { flag: "no_such_flag", enabled: true });
    expect(unknown.status).toBe(404);
    const audit = (await admin.get("/api/admin/audit")).body.result.result as {
      action: string;
      targetUserId: string;
    }[];
    expect(audit.some((entry) => entry.action === "flag.set" && entry.targetUserId === userId)).toBe(true);
  });
});

describe("settings: password and devices", () => {
  it("changes the password after checking the current one and ends every other session", async () => {
    const { session: first, email } = await verifiedSession("password-change");
    const phone = await signIn(
      new GatewaySession(),
      email,
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    );
    expect((await phone.get("/api/user/account")).status).toBe(200);

    const wrong = await first.post("/api/settings/password", {
      currentPassword: "nope-nope",
      newPassword: "a-new-password-9",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toHaveProperty("currentPassword");
    expect((await phone.get("/api/user/account")).status).toBe(200);

    const changed = await first.post("/api/settings/password", {
      currentPassword: PASSWORD,
      newPassword: "a-new-password-9",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.result.endedSessions).toBe(1);
    expect((await phone.get("/api/user/account")).status).toBe(401);
    expect((await phone.post("/auth/token/refresh", {})).status).toBe(401);
    expect((await first.get("/api/user/account")).status).toBe(200);
    expect((await new GatewaySession().post("/auth/signin", { email, password: PASSWORD })).status).toBe(401);
    expect((await new GatewaySession().post("/auth/signin", { email, password: "a-new-password-9" })).status).toBe(200);
  });

  it("lists the devices with kind and browser, and signs one out", async () => {
    const { session: laptop, email } = await verifiedSession("devices");
    const phone = await signIn(
      new GatewaySession(),
      email,
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
    );
    const listed = await laptop.get("/api/settings/sessions");
    expect(listed.status).toBe(200);
    const sessions = listed.body.result.sessions as {
      id: string;
      deviceKind: string;
      browser: string;
      current: boolean;
    }[];
    expect(sessions).toHaveLength(2);
    const mobile = sessions.find((session) => session.deviceKind === "mobile")!;
    expect(mobile).toMatchObject({ browser: "Chrome 126", current: false });
    expect(sessions.filter((session) => session.current)).toHaveLength(1);

    const other = await verifiedSession("devices-other");
    expect((await other.session.request("DELETE", `/api/settings/sessions/${mobile.id}`)).status).toBe(404);
    expect((await phone.get("/api/user/account")).status).toBe(200);

    expect((await laptop.request("DELETE", `/api/settings/sessions/${mobile.id}`)).status).toBe(200);
    expect((await phone.get("/api/user/account")).status).toBe(401);
    const after = (await laptop.get("/api/settings/sessions")).body.result.sessions as { id: string }[];
    expect(after.map((session) => session.id)).not.toContain(mobile.id);
  });

  it("changes the display name, ignoring empty values", async () => {
    const { session } = await verifiedSession("account-info");
    const renamed = await session.put("/api/settings/account-info", { displayName: "  Ada Shop  " });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result.display_name).toBe("Ada Shop");
    const kept = await session.put("/api/settings/account-info", { displayName: "" });
    expect(kept.body.result.display_name).toBe("Ada Shop");
    const bad = await session.put("/api/settings/account-info", { image: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect((await session.get("/api/app/initial")).body.result.userInfo.display_name).toBe("Ada Shop");
  });
});
