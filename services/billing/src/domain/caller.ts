/**
 * Whose credits a call acts on. A user's call (access token) acts on that user; `requested` must
 * then be empty or the same user. A service call without a token (workflows spending for a user)
 * must name the user. Billing is reachable only inside the cluster (the gateway does not proxy it).
 * @returns the user id, or the error code to answer with.
 */
export function resolveUser(
  tokenUserId: string | undefined,
  requested: string,
): { userId: string } | { error: "FORBIDDEN" | "UNAUTHENTICATED" } {
  if (tokenUserId) {
    if (requested && requested !== tokenUserId) return { error: "FORBIDDEN" };
    return { userId: tokenUserId };
  }
  if (!requested) return { error: "UNAUTHENTICATED" };
  return { userId: requested };
}
