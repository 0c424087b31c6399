import type { ConnectError } from "@connectrpc/connect";
import { createServiceClient, describeError } from "@crafter/kit";
import {
  GatewaySession,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { describe, expect, it, jest } from "@jest/globals";

// SignIn's lockout counts per client IP. Were the IP read from the caller's request field, a caller
// reaching the auth service directly could pick a fresh IP per attempt and never be locked out. Only
// the gateway (proved by its service token) may name the IP; direct callers share one address.

jest.setTimeout(60_000);

const env = stackEnv();
const direct = createServiceClient(AuthService, env.AUTH_URL ?? "http://127.0.0.1:50051", { timeoutMs: 10_000 });

async function verifiedUser(password: string) {
  const email = uniqueEmail("direct");
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  expect((await session.post("/auth/verify", { token })).status).toBe(200);
  return email;
}

async function attempt(email: string, password: string, ip: string) {
  try {
    await direct.signIn({ email, password, ip });
    return { status: 200, error: undefined as ConnectError | undefined };
  } catch (error) {
    return { status: describeError(error).status, error: error as ConnectError };
  }
}

describe("the client IP of a direct caller", () => {
  it("is not trusted: a fresh IP per attempt still locks the direct caller out", async () => {
    const email = await verifiedUser("owner-password");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(email, "guess", `10.9.${i}.1`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const locked = await attempt(email, "owner-password", "10.9.99.1");
    expect(locked.status).toBe(429);
    // The limit's headers travel as RPC metadata (AppError.headers), for the gateway to answer with.
    expect(Number(locked.error?.metadata.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.error?.metadata.get("ratelimit-policy")).toBe('"signin";q=10;w=900');

    // The owner, through the gateway from their own address, is not locked out.
    const owner = await new GatewaySession().request(
      "POST",
      "/auth/signin",
      { email, password: "owner-password" },
      { "x-forwarded-for": "198.51.100.77" },
    );
    expect(owner.status).toBe(200);
  });

  it("another service's token does not make a caller the gateway", async () => {
    const email = await verifiedUser("owner-password");
    const forged = createServiceClient(AuthService, env.AUTH_URL ?? "http://127.0.0.1:50051", {
      timeoutMs: 10_000,
      as: "service",
      credentials: stackServiceCredentials("workflows"),
    });
    for (let i = 0; i < 10; i++) {
      await forged.signIn({ email, password: "guess", ip: `10.8.${i}.1` }).catch(() => undefined);
    }
    const locked = await forged.signIn({ email, password: "owner-password", ip: "10.8.200.1" }).catch((e) => e);
    expect(describeError(locked).status).toBe(429);
  });
});
