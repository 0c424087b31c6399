import type { AuthDeps } from "../deps";
import { hashToken } from "../domain/tokens";

/** Revokes the family of the given refresh token. Unknown tokens are ignored (sign-out always succeeds). */
export async function signOut(deps: AuthDeps, refreshToken: string): Promise<void> {
  if (!refreshToken) return;
  const stored = await deps.stores.refreshTokens.find(hashToken(refreshToken));
  if (stored) await deps.stores.refreshTokens.revokeFamily(stored.familyId, deps.now());
}
