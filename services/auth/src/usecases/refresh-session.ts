import { appError, denySession } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { AuthDeps } from "../deps";
import { clientHashOf, decideRefresh, hashToken } from "../domain/tokens";
import { issueSession } from "./issue-session";

/**
 * Rotates a refresh token: the presented one is marked used and a new one of the same family is
 * issued with a new access token. A used token may be presented once more inside the grace window
 * (parallel tabs), only by the client it was issued to (same User-Agent); any other reuse revokes
 * the whole family and denies its access tokens at once.
 * @throws UNAUTHENTICATED for unknown, expired, revoked or reused tokens.
 */
export async function refreshSession(deps: AuthDeps, refreshToken: string, userAgent = ""): Promise<Session> {
  const now = deps.now();
  const hash = hashToken(refreshToken);
  const stored = refreshToken ? await deps.stores.refreshTokens.find(hash) : null;
  const grace = deps.config.REFRESH_REUSE_GRACE_MS;
  const clientHash = clientHashOf(userAgent);
  let decision = decideRefresh(stored, now, grace, clientHash);
  // Parallel callers may all have read "unused": only the one whose first-use insert wins rotates;
  // the others are reuses inside the window, judged as such.
  if (decision === "rotate" && stored && !(await deps.stores.refreshTokens.markUsed(hash, now))) {
    decision = decideRefresh({ ...stored, usedAt: now }, now, grace, clientHash);
  }
  if (decision === "grace" && !(await deps.stores.refreshTokens.takeGrace(hash, now))) decision = "reuse";
  if (decision === "reuse" && stored) {
    await deps.stores.refreshTokens.revokeFamily(stored.familyId, now);
    await denySession(deps.redis, stored.familyId, deps.config.ACCESS_TOKEN_TTL_S);
    deps.logger.warn({ familyId: stored.familyId, userId: stored.userId }, "refresh token reuse: family revoked");
  }
  if ((decision !== "rotate" && decision !== "grace") || !stored) throw appError("UNAUTHENTICATED");

  const user = await deps.stores.users.findById(stored.userId);
  if (!user) throw appError("UNAUTHENTICATED");
  return issueSession(deps, user, { familyId: stored.familyId, expiresAt: stored.expiresAt }, userAgent);
}
