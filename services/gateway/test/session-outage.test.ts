// A signed-in user's request while the gateway's Redis is down: the denylist cannot be read, so the
// token can be neither trusted nor refused. The answer is 503 with Retry-After, not a
// 401 that would make the browser drop a good session. A real Express app and a real ioredis client
// (the kit's, as the gateway makes it)
// on a closed port; tokens signed with a real Ed25519 key.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ACCESS_TOKEN_ALG, createAccessTokenVerifier, createRedis, redisDenylist } from "@crafter/kit";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";
import pino from "pino";
import type { Clients } from "../src/clients";
import { errorHandler } from "../src/http/envelope";
import { readAhead } from "../src/http/read-ahead";
import { requireSession } from "../src/http/session";

const ISSUER = "crafter-auth";
const AUDIENCE = "crafter";

describe("requireSession when Redis is down", () => {
  // The gateway's own client settings, on port 9 (discard), closed on the test machines: every
  // command fails after its retries, as in an outage.
  const deadRedis = createRedis("redis://127.0.0.1:9", "gateway", pino({ level: "silent" }));
  let sign: (claims: Record<string, unknown>) => Promise<string>;
  let base: string;
  let server: ReturnType<typeof createServer>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: ACCESS_TOKEN_ALG }] } as JSONWebKeySet;
    sign = (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: "k1" })
        .setSubject("user-1")
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => jwks,
      issuer: ISSUER,
      audience: AUDIENCE,
      isDenied: redisDenylist(deadRedis),
    });
    const app = express();
    // `/read-ahead` goes through the gateway's one-MGET path, `/plain` through the verifier's own check.
    app.use("/", readAhead(deadRedis, ["/read-ahead"]));
    app.use("/", requireSession(verify, {} as Pick<Clients, "auth">));
    app.get(["/read-ahead", "/plain"], (req, res) => {
      res.json({ userId: req.user?.userId });
    });
    app.use(errorHandler(pino({ level: "silent" })));
    server = createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    deadRedis.disconnect();
  });

  const get = (path: string, token: string) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

  // Each request waits out the client's reconnect attempts (about 1.5 s) before it fails.
  it("answers a valid token 503 UNAVAILABLE with Retry-After, in the envelope, on both paths", async () => {
    const token = await sign({ email_verified: true, sid: "session-1", jti: "token-1" });
    for (const path of ["/read-ahead", "/plain"]) {
      const response = await get(path, token);
      expect([path, response.status]).toEqual([path, 503]);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({ success: false, result: null, error: { code: "UNAVAILABLE" } });
    }
  }, 20_000);

  it("still answers a token that is not valid 401, without asking Redis", async () => {
    const response = await get("/plain", "not-a-jwt");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });
});
