import { denySession } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken } from "../domain/tokens";

/**
 * Revokes the family of the given refresh token and denies its access tokens at once.
 * Unknown tokens are ignored (sign-out always succeeds).
 */
export async function signOut(deps: AuthDeps, refreshToken: string): Promise<void> {
  if (!refreshToken) return;
  const stored = await deps.stores.refreshTokens.find(hashToken(refreshToken));
  if (!stored) return;
  await deps.stores.refreshTokens.revokeFamily(stored.familyId, deps.now());
  await denySession(deps.redis, stored.familyId, deps.config.ACCESS_TOKEN_TTL_S);
}
