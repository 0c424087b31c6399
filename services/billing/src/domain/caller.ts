/**
 * Who calls a use case: the contract's transport-free `Caller` (docs/foundation-contract.md). The
 * kit's `Caller` (services/kit/src/caller.ts, shape branch) has exactly these fields; billing types
 * it locally until that lands, so use cases never see a transport type.
 */
export interface Caller {
  /** The user acted for ("" for a service acting for nobody). */
  userId: string;
  /** The user's role; "service" for a service token. */
  role: string;
  /** The bearer token the call came with, to forward on behalf of the user. */
  token: string | undefined;
  signal: AbortSignal;
  /** The calling service's name when a service token was used. */
  service: string | undefined;
}

/**
 * Whose credits a call acts on. A user's call (access token) acts on that user; `requested` must
 * then be empty or the same user. A service call (no user) must name the user.
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
