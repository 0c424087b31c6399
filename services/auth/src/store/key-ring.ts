import { randomUUID } from "node:crypto";
import { ACCESS_TOKEN_ALG } from "@crafter/kit";
import { exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK } from "jose";
import type { SigningKeyRepository } from "./signing-key.repository";

/** A private key as jose imports it. */
export type SigningKey = Awaited<ReturnType<typeof importJWK>>;

export interface KeyRing {
  /** The key that signs new access tokens, and its id. */
  signing: { kid: string; key: SigningKey };
  /** Public keys of every known key, for verification (the JWKS). */
  jwks: JSONWebKeySet;
}

function publicOf(jwk: JWK, kid: string): JWK {
  const { d: _private, ...pub } = jwk;
  return { ...pub, kid, alg: ACCESS_TOKEN_ALG, use: "sig" };
}

/**
 * Loads the Ed25519 signing keys: the configured JWK when given (production, from a Secret),
 * else the ones in the database, generating the first one when there is none.
 */
export async function loadKeyRing(repository: SigningKeyRepository, configuredJwk?: string): Promise<KeyRing> {
  if (configuredJwk) {
    const jwk = JSON.parse(configuredJwk) as JWK;
    const kid = jwk.kid ?? "configured";
    const key = await importJWK({ ...jwk, alg: ACCESS_TOKEN_ALG }, ACCESS_TOKEN_ALG);
    return { signing: { kid, key }, jwks: { keys: [publicOf(jwk, kid)] } };
  }
  let stored = await repository.all();
  if (stored.length === 0) {
    const { privateKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
    await repository.insert(randomUUID(), await exportJWK(privateKey));
    stored = await repository.all();
  }
  const first = stored[0]!;
  const key = await importJWK({ ...first.privateJwk, alg: ACCESS_TOKEN_ALG }, ACCESS_TOKEN_ALG);
  return {
    signing: { kid: first._id, key },
    jwks: { keys: stored.map((doc) => publicOf(doc.privateJwk, doc._id)) },
  };
}
