export type { Caller } from "@crafter/kit";

/**
 * Whose credits a call acts on. A user's call (access token) acts on that user; `requested` must
 * then be empty or the same user (the kit's access interceptor already refuses another user). A
 * service call (service token, no user: workflows spending for a user) must name the user; a call
 * with no token at all never gets here (src/rpc/access.ts).
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
