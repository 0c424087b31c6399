// Service identity from outside (DESIGN §4): every service's port, called as
// an attacker would, over gRPC and over Connect JSON on h2c, with no token, with another user's
// token, with the wrong service's token, and with expired or forged tokens. Needs a running stack
// (scripts/stack.mjs; addresses and SERVICE_SECRETS from .data/stack/<profile>/stack.env).
import { randomUUID } from "node:crypto";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  ACCESS_TOKEN_ALG,
  databaseName,
  describeError,
  SERVICE_TOKEN_AUDIENCE,
  serviceCredentials,
} from "@crafter/kit";
import {
  gatewayUrl,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { Health, HealthCheckResponse_ServingStatus } from "@crafter/proto/grpc/health/v1/health_pb";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import mongoose from "mongoose";

jest.setTimeout(120_000);

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter";
const URLS = {
  auth: env.AUTH_URL ?? "http://127.0.0.1:50051",
  account: env.ACCOUNT_URL ?? "http://127.0.0.1:50052",
  projects: env.PROJECTS_URL ?? "http://127.0.0.1:50053",
  workflows: env.WORKFLOWS_URL ?? "http://127.0.0.1:50054",
  notifications: env.NOTIFICATIONS_URL ?? "http://127.0.0.1:50055",
  billing: env.BILLING_URL ?? "http://127.0.0.1:50056",
};
const ISSUER = env.JWT_ISSUER ?? "crafter-auth";
const USER_AUDIENCE = env.JWT_AUDIENCE ?? "crafter";
const timeoutMs = 30_000;

/** The two ways in an attacker has to a service port: gRPC, and Connect's JSON over h2c. */
const PROTOCOLS: Record<string, (baseUrl: string) => Transport> = {
  grpc: (baseUrl) => createGrpcTransport({ baseUrl, defaultTimeoutMs: timeoutMs }),
  "connect-json": (baseUrl) =>
    createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: false, defaultTimeoutMs: timeoutMs }),
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls `method` once with `request` (unary, or a server stream read to its end). */
async function call(
  transport: Transport,
  service: DescService,
  method: DescMethod,
  request: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const client = createClient(service, transport) as unknown as Record<
    string,
    (req: unknown, options: unknown) => Promise<unknown> | AsyncIterable<unknown>
  >;
  const result = client[method.localName]!(request, { headers });
  if (method.methodKind === "server_streaming") {
    const messages: unknown[] = [];
    for await (const message of result as AsyncIterable<unknown>) messages.push(message);
    return messages;
  }
  return result;
}

/** How a call ended: "OK", or the Connect code name and the spec's error code. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return `${Code[ConnectError.from(error).code]} ${describeError(error).code}`;
  }
}

const UNAUTHENTICATED = "Unauthenticated UNAUTHENTICATED";
const FORBIDDEN = "PermissionDenied FORBIDDEN";

const method = (service: DescService, localName: string) => service.methods.find((m) => m.localName === localName)!;

interface User {
  email: string;
  token: string;
  userId: string;
}

const authGrpc = createClient(AuthService, PROTOCOLS.grpc!(URLS.auth));

/** A new user, verified through the mail as a person would, and signed in. */
async function newUser(label: string): Promise<User> {
  const email = uniqueEmail(`identity-${label}`);
  const password = "correct horse battery";
  await authGrpc.signUp({ email, password, displayName: `Identity ${label}` });
  const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
  await authGrpc.verifyEmail({ token: link.searchParams.get("token")! });
  const { session } = await authGrpc.signIn({ email, password, ip: "127.0.0.1" });
  return { email, token: session!.accessToken, userId: session!.user!.userId };
}

/** Signs a token with auth's own signing key, read from auth's database (to test expiry alone). */
async function authKey(): Promise<{ kid: string; key: CryptoKey | Uint8Array }> {
  const connection = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: databaseName(namespace, "auth") })
    .asPromise();
  try {
    const [stored] = await connection
      .collection<{ _id: string; privateJwk: JWK; createdAt: Date }>("signing_keys")
      .find()
      .sort({ createdAt: 1, _id: 1 })
      .limit(1)
      .toArray();
    if (!stored) throw new Error("auth has no signing key in its database (is JWT_PRIVATE_JWK set?)");
    return { kid: stored._id, key: await importJWK({ ...stored.privateJwk, alg: ACCESS_TOKEN_ALG }, ACCESS_TOKEN_ALG) };
  } finally {
    await connection.close();
  }
}

function jwt(
  signing: { kid: string; key: CryptoKey | Uint8Array },
  claims: { sub: string; aud: string; exp: number },
): Promise<string> {
  return new SignJWT({ email_verified: true, role: "owner" })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: signing.kid, typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(claims.aud)
    .setIssuedAt(claims.exp - 300)
    .setExpirationTime(claims.exp)
    .sign(signing.key);
}

let alice: User;
let bob: User;
let aliceProject: { projectId: string; profileId: string };
let aliceCraftId: string;
const workflowsToken = () => stackServiceCredentials("workflows").token();
const gatewayToken = () => stackServiceCredentials("gateway").token();

beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser("alice"), newUser("bob")]);
  const projects = createClient(ProjectsService, PROTOCOLS.grpc!(URLS.projects));
  const created = await projects.createProject(
    { name: "Alice's bakery", description: "Sourdough in Leeds.", audience: "home bakers", keywords: ["bread"] },
    { headers: bearer(alice.token) },
  );
  aliceProject = { projectId: created.project!.projectId, profileId: created.profile!.profileId };
  const workflows = createClient(WorkflowsService, PROTOCOLS.grpc!(URLS.workflows));
  const { craft } = await workflows.createCraft(
    { workflowName: "BlogWriter", projectId: aliceProject.projectId, craftName: "Alice's post" },
    { headers: bearer(alice.token) },
  );
  aliceCraftId = craft!.summary!.craftId;
  // The free grant arrives through Kafka.
  const billing = createClient(BillingService, PROTOCOLS.grpc!(URLS.billing));
  for (let i = 0; i < 150; i++) {
    if ((await billing.getCredits({}, { headers: bearer(alice.token) })).credits > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

/** Every method of the services that serve users needs a token: a token-less call is refused. */
const GUARDED: [string, DescService][] = [
  ["account", AccountService],
  ["projects", ProjectsService],
  ["workflows", WorkflowsService],
  ["billing", BillingService],
];

describe.each(Object.entries(PROTOCOLS))("over %s", (_protocol, transportTo) => {
  const transports = Object.fromEntries(Object.entries(URLS).map(([name, url]) => [name, transportTo(url)])) as Record<
    keyof typeof URLS,
    Transport
  >;
  const aliceCredits = async () =>
    (await createClient(BillingService, transports.billing).getCredits({}, { headers: bearer(alice.token) })).credits;

  it.each(GUARDED)("refuses every %s RPC without a token", async (name, service) => {
    const transport = transports[name as keyof typeof URLS];
    const request: Record<string, unknown> = { userId: alice.userId, craftId: aliceCraftId, amount: 7 };
    const outcomes = await Promise.all(
      service.methods.map(async (m) => [m.name, await outcome(call(transport, service, m, request))]),
    );
    expect(outcomes).toEqual(service.methods.map((m) => [m.name, UNAUTHENTICATED]));
  });

  it("refuses a token-less or a wrong-user Debit and GetCredits at billing", async () => {
    const before = await aliceCredits();
    expect(before).toBeGreaterThan(0);
    const debit = method(BillingService, "debit");
    const getCredits = method(BillingService, "getCredits");
    const request = { userId: alice.userId, amount: 7, reason: "attack" };
    expect(await outcome(call(transports.billing, BillingService, debit, request))).toBe(UNAUTHENTICATED);
    expect(await outcome(call(transports.billing, BillingService, getCredits, request))).toBe(UNAUTHENTICATED);
    // Bob's own token, naming Alice.
    const asBob = bearer(bob.token);
    expect(await outcome(call(transports.billing, BillingService, debit, request, asBob))).toBe(FORBIDDEN);
    expect(await outcome(call(transports.billing, BillingService, getCredits, request, asBob))).toBe(FORBIDDEN);
    // Alice herself may read her credits, but never spend or refund them directly.
    const asAlice = bearer(alice.token);
    expect(await outcome(call(transports.billing, BillingService, debit, request, asAlice))).toBe(FORBIDDEN);
    const refund = method(BillingService, "refund");
    expect(await outcome(call(transports.billing, BillingService, refund, { debitId: "x" }, asAlice))).toBe(FORBIDDEN);
    expect(await aliceCredits()).toBe(before);
  });

  it("answers account GetUserInfo with the token's user only", async () => {
    const account = createClient(AccountService, transports.account);
    expect(await outcome(account.getUserInfo({}))).toBe(UNAUTHENTICATED);
    const { userInfo } = await account.getUserInfo({}, { headers: bearer(bob.token) });
    expect(userInfo).toMatchObject({ userId: bob.userId, email: bob.email });
    // A user id smuggled in as an unknown JSON field changes nothing.
    const seen = await call(
      transports.account,
      AccountService,
      method(AccountService, "getUserInfo"),
      { userId: alice.userId },
      bearer(bob.token),
    );
    expect(seen).toMatchObject({ userInfo: { userId: bob.userId } });
  });

  it("keeps Alice's crafts and projects from Bob", async () => {
    const workflows = createClient(WorkflowsService, transports.workflows);
    const asBob = { headers: bearer(bob.token) };
    for (const attempt of [
      workflows.getCraft({ craftId: aliceCraftId }, asBob),
      workflows.renameCraft({ craftId: aliceCraftId, name: "Bob was here" }, asBob),
      workflows.setFavorite({ craftId: aliceCraftId, favorite: true }, asBob),
      workflows.deleteCraft({ craftId: aliceCraftId }, asBob),
    ]) {
      expect(await outcome(attempt)).toMatch(/^(NotFound NOT_FOUND|PermissionDenied FORBIDDEN)$/);
    }
    const bobsList = await workflows.listCrafts({ projectId: aliceProject.projectId }, asBob);
    expect(bobsList.crafts.map((craft) => craft.craftId)).not.toContain(aliceCraftId);
    const { craft } = await workflows.getCraft({ craftId: aliceCraftId }, { headers: bearer(alice.token) });
    expect(craft!.summary).toMatchObject({ craftName: "Alice's post", favorite: false });

    const projects = createClient(ProjectsService, transports.projects);
    expect(await outcome(projects.getProfile({ profileId: aliceProject.profileId }, asBob))).toMatch(
      /^(NotFound NOT_FOUND|PermissionDenied FORBIDDEN)$/,
    );
    expect(await outcome(projects.setActiveProject({ newActiveId: aliceProject.projectId }, asBob))).toMatch(
      /^(NotFound NOT_FOUND|PermissionDenied FORBIDDEN)$/,
    );
    const bobsProjects = await projects.listProjects({}, asBob);
    expect(JSON.stringify(bobsProjects)).not.toContain(aliceProject.projectId);
  });

  it("lets the workflows service debit and refund any user, and no other service", async () => {
    const billing = createClient(BillingService, transports.billing);
    const before = await aliceCredits();
    const asWorkflows = { headers: bearer(await workflowsToken()) };
    const { debitId, balance } = await billing.debit(
      { userId: alice.userId, amount: 1, reason: "identity test", idempotencyKey: randomUUID() },
      asWorkflows,
    );
    expect(balance).toBe(before - 1);
    expect((await billing.refund({ debitId }, asWorkflows)).balance).toBe(before);

    const asGateway = { headers: bearer(await gatewayToken()) };
    expect(await outcome(billing.debit({ userId: alice.userId, amount: 7 }, asGateway))).toBe(FORBIDDEN);
    expect(await outcome(billing.refund({ debitId }, asGateway))).toBe(FORBIDDEN);
    // A service token is not a user's: user-only RPCs refuse it, whoever it names.
    expect(await outcome(billing.getCredits({ userId: alice.userId }, asWorkflows))).toBe(FORBIDDEN);
    const account = createClient(AccountService, transports.account);
    expect(await outcome(account.getUserInfo({}, asWorkflows))).toBe(FORBIDDEN);
    const workflows = createClient(WorkflowsService, transports.workflows);
    expect(await outcome(workflows.getCraft({ craftId: aliceCraftId }, asWorkflows))).toBe(FORBIDDEN);
    expect(await aliceCredits()).toBe(before);
  });

  it("answers expired, forged and malformed tokens with Unauthenticated, on every port", async () => {
    const real = await authKey();
    const past = Math.floor(Date.now() / 1000) - 60;
    const future = Math.floor(Date.now() / 1000) + 300;
    const stranger = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
    const bad = {
      "expired service token": await jwt(real, { sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE, exp: past }),
      "expired user token": await jwt(real, { sub: alice.userId, aud: USER_AUDIENCE, exp: past }),
      "forged service token": await jwt(
        { kid: real.kid, key: stranger.privateKey },
        { sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE, exp: future },
      ),
      "forged user token": await jwt(
        { kid: real.kid, key: stranger.privateKey },
        { sub: alice.userId, aud: USER_AUDIENCE, exp: future },
      ),
      // A service token with a user's subject, or a user's with a service's, even if well signed.
      "service audience naming a user": await jwt(real, {
        sub: alice.userId,
        aud: SERVICE_TOKEN_AUDIENCE,
        exp: future,
      }),
      "user audience naming a service": await jwt(real, { sub: "service:workflows", aud: USER_AUDIENCE, exp: future }),
      "alg none": `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(
        JSON.stringify({ sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE, iss: ISSUER, exp: future }),
      ).toString("base64url")}.`,
      "not a jwt": "not-a-jwt",
    };
    const billing = createClient(BillingService, transports.billing);
    const results: Record<string, string[]> = {};
    for (const [label, token] of Object.entries(bad)) {
      results[label] = await Promise.all([
        outcome(billing.debit({ userId: alice.userId, amount: 7 }, { headers: bearer(token) })),
        outcome(billing.getCredits({ userId: alice.userId }, { headers: bearer(token) })),
        outcome(createClient(AccountService, transports.account).getUserInfo({}, { headers: bearer(token) })),
        outcome(createClient(ProjectsService, transports.projects).listProjects({}, { headers: bearer(token) })),
        outcome(
          createClient(WorkflowsService, transports.workflows).getCraft(
            { craftId: aliceCraftId },
            { headers: bearer(token) },
          ),
        ),
        // Even public RPCs refuse a token that is present but invalid.
        outcome(createClient(AuthService, transports.auth).getJwks({}, { headers: bearer(token) })),
      ]);
    }
    expect(results).toEqual(
      Object.fromEntries(Object.keys(bad).map((label) => [label, Array(6).fill(UNAUTHENTICATED)])),
    );
    // A scheme other than Bearer is no token at all.
    expect(await outcome(billing.getCredits({}, { headers: { authorization: `Basic ${btoa("a:b")}` } }))).toBe(
      UNAUTHENTICATED,
    );
  });

  it("keeps auth's public RPCs public, and issues service tokens only for the right secret", async () => {
    const authClient = createClient(AuthService, transports.auth);
    expect(JSON.parse((await authClient.getJwks({})).jwksJson).keys.length).toBeGreaterThan(0);
    const secretOf = (name: string) =>
      (env.SERVICE_SECRETS ?? "")
        .split(",")
        .map((entry) => entry.split("="))
        .find(([key]) => key === name)![1]!;
    const issued = await authClient.issueServiceToken({ service: "workflows", secret: secretOf("workflows") });
    const claims = JSON.parse(Buffer.from(issued.token.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE, iss: ISSUER });
    expect(claims.exp - claims.iat).toBe(300);
    expect(Number(issued.expiresAt!.seconds)).toBe(claims.exp);
    for (const attempt of [
      { service: "workflows", secret: secretOf("gateway") },
      { service: "workflows", secret: "x".repeat(43) },
      { service: "nosuchservice", secret: secretOf("workflows") },
      { service: "", secret: "" },
    ]) {
      expect(await outcome(authClient.issueServiceToken(attempt))).toBe(UNAUTHENTICATED);
    }
  });

  it("serves health to anyone, and nothing else on the notifications port", async () => {
    for (const name of Object.keys(URLS) as (keyof typeof URLS)[]) {
      const health = createClient(Health, transports[name]);
      expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    }
    // Notifications serves no RPC of its own; a billing call on its port goes nowhere.
    const stray = createClient(BillingService, transports.notifications);
    expect(await outcome(stray.debit({ userId: alice.userId, amount: 7 }))).toMatch(/^Unimplemented /);
    expect(
      await outcome(stray.debit({ userId: alice.userId, amount: 7 }, { headers: bearer(await workflowsToken()) })),
    ).toMatch(/^Unimplemented /);
  });
});

describe("serviceCredentials", () => {
  it("keeps one token until a minute before its expiry, then fetches a new one", async () => {
    const secret = (env.SERVICE_SECRETS ?? "")
      .split(",")
      .map((entry) => entry.split("="))
      .find(([key]) => key === "workflows")![1]!;
    let clock = Date.now();
    const credentials = serviceCredentials({
      name: "workflows",
      secret,
      authUrl: URLS.auth,
      timeoutMs,
      now: () => clock,
    });
    const [first, concurrent] = await Promise.all([credentials.token(), credentials.token()]);
    expect(concurrent).toBe(first);
    clock += 3 * 60_000;
    expect(await credentials.token()).toBe(first);
    clock += 60_000 + 1000; // under a minute left of the 5
    const renewed = await credentials.token();
    expect(renewed).not.toBe(first);
    const billing = createClient(BillingService, PROTOCOLS.grpc!(URLS.billing));
    const { debitId } = await billing.debit(
      { userId: alice.userId, amount: 0, reason: "renewed" },
      { headers: bearer(renewed) },
    );
    expect(debitId).not.toBe("");
  });

  it("fails clearly without a secret, and with a wrong one", async () => {
    const without = serviceCredentials({ name: "workflows", secret: undefined, authUrl: URLS.auth, timeoutMs });
    await expect(without.token()).rejects.toThrow("SERVICE_SECRET is not set");
    const wrong = serviceCredentials({ name: "workflows", secret: "w".repeat(43), authUrl: URLS.auth, timeoutMs });
    expect(await outcome(wrong.token())).toBe(UNAUTHENTICATED);
  });
});

describe("the gateway", () => {
  it("does not take a service token for a user's session", async () => {
    const response = await fetch(`${gatewayUrl()}/api/user/account`, { headers: bearer(await workflowsToken()) });
    expect(response.status).toBe(401);
  });

  it("refuses its /rpc stream relay without a session", async () => {
    const relay = createConnectTransport({
      baseUrl: `${gatewayUrl()}/rpc`,
      httpVersion: "1.1",
      defaultTimeoutMs: timeoutMs,
    });
    const completeStep = method(WorkflowsService, "completeStep");
    const request = { craftId: aliceCraftId, stepName: "topic" };
    // Same-origin, so the CSRF guard lets it through to the session check.
    const origin = { origin: new URL(gatewayUrl()).origin };
    expect(await outcome(call(relay, WorkflowsService, completeStep, request, origin))).toBe(UNAUTHENTICATED);
    const asWorkflows = bearer(await workflowsToken());
    expect(await outcome(call(relay, WorkflowsService, completeStep, request, asWorkflows))).toBe(UNAUTHENTICATED);
  });
});
