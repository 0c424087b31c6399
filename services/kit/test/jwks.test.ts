import { describe, expect, it } from "@jest/globals";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";
import { ACCESS_TOKEN_ALG, createAccessTokenVerifier } from "../src/rpc/jwks";

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
});
