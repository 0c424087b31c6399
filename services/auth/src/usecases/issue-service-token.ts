import { randomUUID } from "node:crypto";
import { ACCESS_TOKEN_ALG, appError, SERVICE_SUBJECT_PREFIX, SERVICE_TOKEN_AUDIENCE } from "@crafter/kit";
import { SignJWT } from "jose";
import type { AuthDeps } from "../deps";
import { serviceSecretMatches } from "../domain/service-secrets";

/**
 * Client credentials: a service's name and secret for a service token, an EdDSA JWT signed with
 * the key ring's signing key (so it verifies with the same JWKS) with `iss = JWT_ISSUER`,
 * `aud = crafter-internal`, `sub = service:<name>`, `exp` SERVICE_TOKEN_TTL_S (5 min) from now.
 * @throws UNAUTHENTICATED for an unknown service or a wrong secret (the same answer for both).
 */
export async function issueServiceToken(
  deps: AuthDeps,
  input: { service: string; secret: string },
): Promise<{ token: string; expiresAt: Date }> {
  if (!serviceSecretMatches(deps.config.SERVICE_SECRETS, input.service, input.secret)) {
    deps.logger.warn({ client: input.service.slice(0, 64) }, "service token refused: wrong name or secret");
    throw appError("UNAUTHENTICATED");
  }
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.SERVICE_TOKEN_TTL_S * 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: deps.keys.signing.kid, typ: "JWT" })
    .setSubject(`${SERVICE_SUBJECT_PREFIX}${input.service}`)
    .setIssuer(deps.config.JWT_ISSUER)
    .setAudience(SERVICE_TOKEN_AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .setJti(randomUUID())
    .sign(deps.keys.signing.key);
  return { token, expiresAt };
}
