import { appError } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { AuthDeps } from "../deps";
import { decideRefresh, hashToken } from "../domain/tokens";
import { issueSession } from "./issue-session";

/**
 * Rotates a refresh token: the presented one is marked used and a new one of the same family is
 * issued with a new access token. A token used before, outside the grace window, is a reuse: the
 * whole family is revoked.
 * @throws UNAUTHENTICATED for unknown, expired, revoked or reused tokens.
 */
export async function refreshSession(deps: AuthDeps, refreshToken: string): Promise<Session> {
  const now = deps.now();
  const hash = hashToken(refreshToken);
  const stored = refreshToken ? await deps.stores.refreshTokens.find(hash) : null;
  const decision = decideRefresh(stored, now, deps.config.REFRESH_REUSE_GRACE_MS);
  if (decision === "reuse" && stored) {
    await deps.stores.refreshTokens.revokeFamily(stored.familyId, now);
    deps.logger.warn({ familyId: stored.familyId, userId: stored.userId }, "refresh token reuse: family revoked");
  }
  if (decision !== "rotate" || !stored) throw appError("UNAUTHENTICATED");

  const user = await deps.stores.users.findById(stored.userId);
  if (!user) throw appError("UNAUTHENTICATED");
  await deps.stores.refreshTokens.markUsed(hash, now);
  return issueSession(deps, user, { familyId: stored.familyId, expiresAt: stored.expiresAt });
}
