import { ACCESS_TOKEN_ALG, appError, redisDenylist } from "@crafter/kit";
import { createLocalJWKSet, jwtVerify } from "jose";
import type { AuthDeps } from "../deps";

/** The session behind a browser's access token. */
export interface SessionUser {
  userId: string;
  /** The refresh-token family. */
  sid: string;
}

/**
 * Verifies an access token against auth's own keys (EdDSA pinned, `iss`, `aud`, `exp`, denylist)
 * and requires a verified user's browser session: a token traded for an API key (`sid` "key:…")
 * never manages keys.
 * @throws UNAUTHENTICATED for a missing or invalid token; FORBIDDEN for an API key's token;
 * EMAIL_NOT_VERIFIED.
 */
export async function sessionUser(deps: AuthDeps, authorization: string | null): Promise<SessionUser> {
  const token = authorization?.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : "";
  if (!token) throw appError("UNAUTHENTICATED");
  const payload = await jwtVerify(token, createLocalJWKSet(deps.keys.jwks), {
    algorithms: [ACCESS_TOKEN_ALG],
    issuer: deps.config.JWT_ISSUER,
    audience: deps.config.JWT_AUDIENCE,
  }).then(
    (result) => result.payload,
    () => {
      throw appError("UNAUTHENTICATED");
    },
  );
  const sid = typeof payload.sid === "string" ? payload.sid : "";
  if (await redisDenylist(deps.redis)({ sid, sub: payload.sub, iat: payload.iat })) throw appError("UNAUTHENTICATED");
  if (sid.startsWith("key:")) throw appError("FORBIDDEN", "API keys cannot manage API keys.");
  if (payload.email_verified !== true) throw appError("EMAIL_NOT_VERIFIED");
  return { userId: payload.sub ?? "", sid };
}
