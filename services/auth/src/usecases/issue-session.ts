import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ACCESS_TOKEN_ALG } from "@crafter/kit";
import { type Session, SessionSchema } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { SignJWT } from "jose";
import type { AuthDeps } from "../deps";
import { effectiveRole } from "../domain/admin-emails";
import { clientHashOf, hashToken, newOpaqueToken } from "../domain/tokens";
import type { User } from "../store/user.repository";

/**
 * Issues an access JWT (EdDSA, `ACCESS_TOKEN_TTL_S`, claims of spec section 3, plus `jti` and the
 * family as `sid` for the denylist) and a new refresh token bound to the client's User-Agent.
 * A new family starts at sign-in (recorded with its User-Agent and IP as a linked device); a
 * rotation continues `family` and keeps its absolute expiry. The `role` claim is the stored role,
 * or admin for a verified address of ADMIN_EMAILS.
 */
export async function issueSession(
  deps: AuthDeps,
  user: User,
  family?: { familyId: string; expiresAt: Date },
  userAgent = "",
  ip = "",
): Promise<Session> {
  const now = deps.now();
  const familyId = family?.familyId ?? randomUUID();
  const role = effectiveRole(user, deps.config.ADMIN_EMAILS);
  // A new family is a new linked device: remember what it was signed in from.
  if (!family) await deps.stores.sessions.record({ _id: familyId, userId: user.id, userAgent, ip, createdAt: now });
  const accessExpiresAt = new Date(now.getTime() + deps.config.ACCESS_TOKEN_TTL_S * 1000);
  const accessToken = await new SignJWT({
    email: user.email,
    role,
    email_verified: user.emailVerified,
    client_id: user.clientId,
    display_name: user.displayName,
    sid: familyId,
  })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: deps.keys.signing.kid, typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(deps.config.JWT_ISSUER)
    .setAudience(deps.config.JWT_AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(accessExpiresAt.getTime() / 1000))
    .setJti(randomUUID())
    .sign(deps.keys.signing.key);

  const refreshToken = newOpaqueToken();
  const refreshExpiresAt = family?.expiresAt ?? new Date(now.getTime() + deps.config.REFRESH_TOKEN_TTL_S * 1000);
  await deps.stores.refreshTokens.create({
    _id: hashToken(refreshToken),
    familyId,
    userId: user.id,
    expiresAt: refreshExpiresAt,
    clientHash: clientHashOf(userAgent),
  });

  return create(SessionSchema, {
    accessToken,
    refreshToken,
    accessExpiresAt: timestampFromDate(accessExpiresAt),
    refreshExpiresAt: timestampFromDate(refreshExpiresAt),
    user: {
      userId: user.id,
      email: user.email,
      role,
      emailVerified: user.emailVerified,
      clientId: user.clientId,
      displayName: user.displayName,
    },
  });
}
