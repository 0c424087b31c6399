import { describe, expect, it } from "@jest/globals";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";
import { SERVICE_TOKEN_AUDIENCE } from "../src/rpc/identity";
import { ACCESS_TOKEN_ALG, createAccessTokenVerifier, createIdentityVerifier } from "../src/rpc/jwks";

const ISSUER = "crafter-auth";
const AUDIENCE = "crafter";
const T0 = Date.UTC(2026, 0, 1) / 1000;

async function keys(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: ACCESS_TOKEN_ALG } };
}

function sign(privateKey: CryptoKey, kid: string, claims: { sub: string; iat: number; exp: number }) {
  return new SignJWT({ email: `${claims.sub}@example.test`, role: "owner" })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(privateKey);
}

describe("createAccessTokenVerifier", () => {
  it("reads a delegated token's act and pid (issue 14), and defaults the actor to the user", async () => {
    const key = await keys("k1");
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [key.jwk] }) as JSONWebKeySet,
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => T0 * 1000,
    });
    const delegated = await new SignJWT({
      email: "owner@example.test",
      role: "manager",
      act: { sub: "member-1", email: "member@example.test" },
      pid: "p-1",
    })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: "k1" })
      .setSubject("owner-1")
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(T0)
      .setExpirationTime(T0 + 60)
      .sign(key.privateKey);
    expect(await verify(delegated)).toMatchObject({
      userId: "owner-1",
      role: "manager",
      actorUserId: "member-1",
      actorEmail: "member@example.test",
      delegatedProjectId: "p-1",
    });
    const own = await sign(key.privateKey, "k1", { sub: "u1", iat: T0, exp: T0 + 60 });
    expect(await verify(own)).toMatchObject({
      userId: "u1",
      actorUserId: "u1",
      actorEmail: "u1@example.test",
      delegatedProjectId: "",
    });
  });

  it("answers a token it verified before as a fresh check would, until its expiry", async () => {
    const key = await keys("k1");
    let clock = T0 * 1000;
    let fetches = 0;
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => {
        fetches++;
        return { keys: [key.jwk] } as JSONWebKeySet;
      },
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => clock,
    });
    const token = await sign(key.privateKey, "k1", { sub: "u1", iat: T0, exp: T0 + 60 });

    const first = await verify(token);
    expect(first).toMatchObject({ userId: "u1", email: "u1@example.test", role: "owner", exp: T0 + 60 });
    first.userId = "changed by a caller";
    clock += 30_000;
    expect((await verify(token)).userId).toBe("u1");
    expect(fetches).toBe(1);

    clock = (T0 + 60) * 1000;
    await expect(verify(token)).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
  });

  it("never remembers a refused token", async () => {
    const key = await keys("k1");
    const stranger = await keys("k1");
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [key.jwk] }) as JSONWebKeySet,
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => T0 * 1000,
    });
    const forged = await sign(stranger.privateKey, "k1", { sub: "u2", iat: T0, exp: T0 + 60 });
    await expect(verify(forged)).rejects.toMatchObject({ code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
    await expect(verify(forged)).rejects.toMatchObject({ code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
  });

  it("asks the denylist on every call, cached or not, and refuses a denied token at once", async () => {
    const key = await keys("k1");
    const denied = new Set<string>();
    const asked: Array<{ sub?: string; iat?: number }> = [];
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [key.jwk] }) as JSONWebKeySet,
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => T0 * 1000,
      isDenied: async (claims) => {
        asked.push(claims);
        return denied.has(claims.sub ?? "");
      },
    });
    const token = await sign(key.privateKey, "k1", { sub: "u3", iat: T0, exp: T0 + 60 });
    expect((await verify(token)).userId).toBe("u3");
    expect((await verify(token)).userId).toBe("u3"); // from the cache, still asked
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ sub: "u3", iat: T0 });
    denied.add("u3");
    await expect(verify(token)).rejects.toThrow("access token denied");
  });

  it("takes the denylist's answer the caller read already, instead of asking again", async () => {
    const key = await keys("k1");
    let asked = 0;
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [key.jwk] }) as JSONWebKeySet,
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => T0 * 1000,
      isDenied: async () => {
        asked++;
        return false;
      },
    });
    const token = await sign(key.privateKey, "k1", { sub: "u4", iat: T0, exp: T0 + 60 });
    expect((await verify(token, { denied: Promise.resolve(false) })).userId).toBe("u4");
    // Cached or not, a denial read ahead refuses the token.
    await expect(verify(token, { denied: Promise.resolve(true) })).rejects.toThrow("access token denied");
    expect(asked).toBe(0);
    expect((await verify(token)).userId).toBe("u4");
    expect(asked).toBe(1);
  });
});

describe("createIdentityVerifier", () => {
  const signAs = (privateKey: CryptoKey, claims: { sub: string; aud: string | string[]; exp?: number }) =>
    new SignJWT({})
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: "k1" })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(claims.aud)
      .setIssuedAt(T0)
      .setExpirationTime(claims.exp ?? T0 + 300)
      .sign(privateKey);

  async function setup() {
    const key = await keys("k1");
    const options = {
      fetchJwks: async () => ({ keys: [key.jwk] }) as JSONWebKeySet,
      issuer: ISSUER,
      audience: AUDIENCE,
      now: () => T0 * 1000,
    };
    return { key, verify: createIdentityVerifier(options), verifyUser: createAccessTokenVerifier(options) };
  }

  it("tells a service token from a user token, with one JWKS", async () => {
    const { key, verify } = await setup();
    const service = await signAs(key.privateKey, { sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE });
    expect(await verify(service)).toEqual({ kind: "service", service: "workflows", exp: T0 + 300 });
    const user = await sign(key.privateKey, "k1", { sub: "u1", iat: T0, exp: T0 + 60 });
    expect(await verify(user)).toMatchObject({ kind: "user", user: { userId: "u1" } });
  });

  it("refuses a service token where only user tokens go (the gateway's verifier)", async () => {
    const { key, verifyUser } = await setup();
    const service = await signAs(key.privateKey, { sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE });
    await expect(verifyUser(service)).rejects.toMatchObject({ code: "ERR_JWT_CLAIM_VALIDATION_FAILED" });
  });

  it("refuses tokens whose audience and subject disagree", async () => {
    const { key, verify } = await setup();
    const cases = [
      { sub: "service:workflows", aud: AUDIENCE },
      { sub: "u1", aud: SERVICE_TOKEN_AUDIENCE },
      { sub: "service:Not A Name", aud: SERVICE_TOKEN_AUDIENCE },
      { sub: "service:workflows", aud: [AUDIENCE, SERVICE_TOKEN_AUDIENCE] },
    ];
    for (const claims of cases) {
      await expect(verify(await signAs(key.privateKey, claims))).rejects.toMatchObject({
        code: "ERR_CRAFTER_TOKEN_CLAIMS",
      });
    }
  });

  it("refuses an expired service token and another algorithm", async () => {
    const { key, verify } = await setup();
    const expired = await signAs(key.privateKey, { sub: "service:workflows", aud: SERVICE_TOKEN_AUDIENCE, exp: T0 });
    await expect(verify(expired)).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
    const hs256 = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setSubject("service:workflows")
      .setIssuer(ISSUER)
      .setAudience(SERVICE_TOKEN_AUDIENCE)
      .setExpirationTime(T0 + 300)
      .sign(new TextEncoder().encode("a shared secret that is long enough"));
    await expect(verify(hs256)).rejects.toMatchObject({ code: "ERR_JOSE_ALG_NOT_ALLOWED" });
  });
});
