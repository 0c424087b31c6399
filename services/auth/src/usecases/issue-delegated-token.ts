import { randomUUID } from "node:crypto";
import { ACCESS_TOKEN_ALG, appError } from "@crafter/kit";
import { SignJWT } from "jose";
import type { AuthDeps } from "../deps";
import { delegatedClaims } from "../domain/delegation";

/**
 * Mints a team member's delegated access token (only projects calls it, after checking
 * the membership): EdDSA like every access token, `ACCESS_TOKEN_TTL_S`, claims of `delegatedClaims`.
 * @throws CR_ERR_BAD_REQUEST for a missing id or a role other than manager/projectAdmin; NOT_FOUND
 *   for an unknown owner.
 */
export async function issueDelegatedToken(
  deps: AuthDeps,
  input: { ownerUserId: string; memberUserId: string; memberEmail: string; projectId: string; role: string },
): Promise<{ token: string; expiresAt: Date }> {
  const owner = input.ownerUserId ? await deps.stores.users.findById(input.ownerUserId) : null;
  if (input.ownerUserId && !owner) throw appError("NOT_FOUND", "No such user.");
  const claims = owner
    ? delegatedClaims(owner, { userId: input.memberUserId, email: input.memberEmail }, input.projectId, input.role)
    : null;
  if (!claims)
    throw appError("CR_ERR_BAD_REQUEST", "A delegation needs an owner, a member, a project and a member role.");
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.ACCESS_TOKEN_TTL_S * 1000);
  const { sub, ...rest } = claims;
  const token = await new SignJWT({ ...rest })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: deps.keys.signing.kid, typ: "JWT" })
    .setSubject(sub)
    .setIssuer(deps.config.JWT_ISSUER)
    .setAudience(deps.config.JWT_AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .setJti(randomUUID())
    .sign(deps.keys.signing.key);
  deps.logger.info({ owner: sub, actor: claims.act.sub, projectId: claims.pid }, "delegated token issued");
  return { token, expiresAt };
}
