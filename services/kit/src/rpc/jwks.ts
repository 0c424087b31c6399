import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { DeniableClaims } from "../redis/denylist";
import { createServiceClient } from "./client";
import type { AuthUser } from "./identity";

/** The one algorithm access tokens are signed with; pinned on verification. */
export const ACCESS_TOKEN_ALG = "EdDSA";

export interface AccessTokenVerifierOptions {
  /** Returns the current JWKS of the auth service (e.g. its GetJwks RPC). */
  fetchJwks: () => Promise<JSONWebKeySet>;
  issuer: string;
  audience: string;
  /** Minimum time between two JWKS fetches triggered by an unknown key id, in ms. Default 30 s. */
  refetchCooldownMs?: number;
  /** Verified tokens remembered until they expire (0 turns the cache off). Default 10,000. */
  cacheSize?: number;
  /** The clock, in ms since the epoch (tests move it). Default Date.now. */
  now?: () => number;
  /**
   * Asked on every call, cached or not: true refuses the token at once (sign-out, a revoked family
   * or API key, a password change). The kit's `redisDenylist(redis)`. Default: nothing is denied.
   */
  isDenied?: (claims: DeniableClaims) => Promise<boolean>;
}

export type AccessTokenVerifier = (token: string) => Promise<AuthUser>;

/**
 * Verifies access JWTs against the auth service's JWKS: algorithm pinned to EdDSA, `iss`, `aud`
 * and `exp` checked. Keys are cached and fetched again when a token names an unknown key id
 * (key rotation), at most once per cooldown.
 *
 * A token that verified is remembered (by its exact text) until its `exp`: every request of a
 * session carries the same token through the gateway and each service, and an Ed25519 check per
 * hop was the largest CPU cost of an authenticated read. The signature cannot change without the
 * text changing, so the cache answers exactly as a fresh check would until the expiry, which is
 * still enforced. Oldest entries go first when it is full.
 * @throws jose errors (JWTExpired, JWSSignatureVerificationFailed, …) for any invalid token.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const cooldown = options.refetchCooldownMs ?? 30_000;
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  const verified = new Map<string, { user: AuthUser; claims: DeniableClaims }>();
  const denied = async (claims: DeniableClaims) => {
    if (options.isDenied && (await options.isDenied(claims))) throw new Error("access token denied");
  };
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = 0;
  let inflight: Promise<void> | undefined;

  const refresh = () => {
    inflight ??= options
      .fetchJwks()
      .then((jwks) => {
        keySet = createLocalJWKSet(jwks);
        fetchedAt = Date.now();
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (!keySet) await refresh();
    try {
      return await keySet!(header, token);
    } catch (error) {
      const unknownKey = (error as { code?: string }).code === "ERR_JWKS_NO_MATCHING_KEY";
      if (!unknownKey || Date.now() - fetchedAt < cooldown) throw error;
      await refresh();
      return keySet!(header, token);
    }
  };

  return async (token) => {
    const cached = verified.get(token);
    if (cached) {
      // jose's rule: expired once `exp` (seconds) is not after now.
      if (cached.user.exp * 1000 > now()) {
        await denied(cached.claims);
        return { ...cached.user };
      }
      verified.delete(token);
    }
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: [ACCESS_TOKEN_ALG],
      issuer: options.issuer,
      audience: options.audience,
      currentDate: new Date(now()),
    });
    const user = toAuthUser(payload);
    const claims: DeniableClaims = {
      jti: payload.jti,
      sid: typeof payload.sid === "string" ? payload.sid : undefined,
      sub: payload.sub,
      iat: payload.iat,
    };
    if (cacheSize > 0 && user.exp > 0) {
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, { user, claims });
    }
    await denied(claims);
    return { ...user };
  };
}

function toAuthUser(payload: JWTPayload): AuthUser {
  const claim = (name: string) => (typeof payload[name] === "string" ? (payload[name] as string) : "");
  return {
    userId: payload.sub ?? "",
    email: claim("email"),
    role: claim("role"),
    email_verified: payload.email_verified === true,
    clientId: claim("client_id"),
    display_name: claim("display_name"),
    iat: payload.iat ?? 0,
    exp: payload.exp ?? 0,
  };
}

/** Fetches the JWKS from the auth service's GetJwks RPC at `authUrl`. */
export function authServiceJwks(authUrl: string, timeoutMs: number): () => Promise<JSONWebKeySet> {
  const client = createServiceClient(AuthService, authUrl, { timeoutMs });
  return async () => JSON.parse((await client.getJwks({})).jwksJson) as JSONWebKeySet;
}
