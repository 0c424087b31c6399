import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { DeniableClaims } from "../redis/denylist";
import { type AuthUser, SERVICE_SUBJECT_PREFIX, SERVICE_TOKEN_AUDIENCE, type VerifiedIdentity } from "./identity";

/** The one algorithm access and service tokens are signed with; pinned on verification. */
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
   * Only user tokens are asked (service tokens name no session).
   */
  isDenied?: (claims: DeniableClaims) => Promise<boolean>;
}

export interface VerifyOptions {
  /**
   * The denylist's answer for this very token, read already by the caller (the gateway reads the
   * denylist beside a cache version in one Redis round trip, from the same token's claims); used
   * instead of asking `isDenied`. Ignored for service tokens.
   */
  denied?: Promise<boolean>;
}

export type AccessTokenVerifier = (token: string, options?: VerifyOptions) => Promise<AuthUser>;
/** Verifies a bearer token of either kind (see createIdentityVerifier). */
export type IdentityVerifier = (token: string, options?: VerifyOptions) => Promise<VerifiedIdentity>;

/** A service name as it appears in `sub = service:<name>`. */
const SERVICE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** Thrown for a token whose signature is good but whose claims name no valid caller. */
export class InvalidTokenClaims extends Error {
  override name = "InvalidTokenClaims";
  readonly code = "ERR_CRAFTER_TOKEN_CLAIMS";
}

/**
 * Verifies access JWTs (user tokens only) against the auth service's JWKS: algorithm pinned to
 * EdDSA, `iss`, `aud` (= `audience`) and `exp` checked. A service token is refused (its `aud` is
 * SERVICE_TOKEN_AUDIENCE). The gateway uses this for cookies and bearer tokens.
 * @throws jose errors (JWTExpired, JWSSignatureVerificationFailed, …) for any invalid token.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const verify = createVerifier(options, [options.audience]);
  return async (token, verifyOptions) => {
    const identity = await verify(token, verifyOptions);
    if (identity.kind !== "user") throw new InvalidTokenClaims("not a user access token");
    return identity.user;
  };
}

/**
 * Verifies a bearer token of either kind with one JWKS: a user access token (`aud = audience`,
 * `sub` = the user id) or a service token (`aud = crafter-internal`, `sub = service:<name>`, from
 * auth's IssueServiceToken). Algorithm pinned to EdDSA; `iss`, `aud` and `exp` checked; a token
 * naming both audiences, or a `sub` of the wrong form for its audience, is refused.
 *
 * Keys are cached and fetched again when a token names an unknown key id (key rotation), at most
 * once per cooldown. A token that verified is remembered (by its exact text) until its `exp`:
 * every request of a session carries the same token through the gateway and each service, and an
 * Ed25519 check per hop was the largest CPU cost of an authenticated read. The signature cannot
 * change without the text changing, so the cache answers exactly as a fresh check would until the
 * expiry, which is still enforced. Oldest entries go first when it is full.
 * @throws jose errors (JWTExpired, JWSSignatureVerificationFailed, …) or InvalidTokenClaims.
 */
export function createIdentityVerifier(options: AccessTokenVerifierOptions): IdentityVerifier {
  return createVerifier(options, [options.audience, SERVICE_TOKEN_AUDIENCE]);
}

function createVerifier(options: AccessTokenVerifierOptions, audiences: string[]): IdentityVerifier {
  const cooldown = options.refetchCooldownMs ?? 30_000;
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  const verified = new Map<string, { identity: VerifiedIdentity; claims: DeniableClaims }>();
  const denied = async (
    { identity, claims }: { identity: VerifiedIdentity; claims: DeniableClaims },
    readAlready?: Promise<boolean>,
  ) => {
    if (identity.kind !== "user") return;
    if (readAlready ? await readAlready : options.isDenied && (await options.isDenied(claims))) {
      throw new InvalidTokenClaims("access token denied");
    }
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

  const expOf = (identity: VerifiedIdentity) => (identity.kind === "user" ? identity.user.exp : identity.exp);
  const copy = (identity: VerifiedIdentity): VerifiedIdentity =>
    identity.kind === "user" ? { kind: "user", user: { ...identity.user } } : { ...identity };

  return async (token, verifyOptions) => {
    const cached = verified.get(token);
    if (cached) {
      // jose's rule: expired once `exp` (seconds) is not after now.
      if (expOf(cached.identity) * 1000 > now()) {
        await denied(cached, verifyOptions?.denied);
        return copy(cached.identity);
      }
      verified.delete(token);
    }
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: [ACCESS_TOKEN_ALG],
      issuer: options.issuer,
      audience: audiences,
      requiredClaims: ["exp", "sub"],
      currentDate: new Date(now()),
    });
    const entry = {
      identity: classify(payload, options.audience),
      claims: {
        jti: payload.jti,
        sid: typeof payload.sid === "string" ? payload.sid : undefined,
        sub: payload.sub,
        iat: payload.iat,
      },
    };
    if (cacheSize > 0) {
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, entry);
    }
    await denied(entry, verifyOptions?.denied);
    return copy(entry.identity);
  };
}

/** Which caller a verified payload names; InvalidTokenClaims when it is ambiguous or malformed. */
function classify(payload: JWTPayload, userAudience: string): VerifiedIdentity {
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const sub = payload.sub ?? "";
  if (audiences.length !== 1) throw new InvalidTokenClaims("a token must name exactly one audience");
  if (audiences[0] === SERVICE_TOKEN_AUDIENCE) {
    const service = sub.slice(SERVICE_SUBJECT_PREFIX.length);
    if (!sub.startsWith(SERVICE_SUBJECT_PREFIX) || !SERVICE_NAME.test(service)) {
      throw new InvalidTokenClaims("a service token's sub must be service:<name>");
    }
    return { kind: "service", service, exp: payload.exp ?? 0 };
  }
  if (audiences[0] !== userAudience || !sub || sub.startsWith(SERVICE_SUBJECT_PREFIX)) {
    throw new InvalidTokenClaims("an access token's sub must be a user id");
  }
  return { kind: "user", user: toAuthUser(payload) };
}

function toAuthUser(payload: JWTPayload): AuthUser {
  const claim = (name: string) => (typeof payload[name] === "string" ? (payload[name] as string) : "");
  const act = actorOf(payload.act);
  return {
    userId: payload.sub ?? "",
    email: claim("email"),
    actorUserId: act?.sub ?? payload.sub ?? "",
    actorEmail: act ? act.email : claim("email"),
    delegatedProjectId: act ? claim("pid") : "",
    role: claim("role"),
    email_verified: payload.email_verified === true,
    clientId: claim("client_id"),
    display_name: claim("display_name"),
    iat: payload.iat ?? 0,
    exp: payload.exp ?? 0,
  };
}

/** The RFC 8693 `act` claim of a team member's delegated token, when well-formed. */
function actorOf(act: unknown): { sub: string; email: string } | null {
  if (!act || typeof act !== "object") return null;
  const { sub, email } = act as Record<string, unknown>;
  if (typeof sub !== "string" || sub === "") return null;
  return { sub, email: typeof email === "string" ? email : "" };
}
