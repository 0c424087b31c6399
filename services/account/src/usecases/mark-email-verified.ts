import type { AccountDeps } from "../deps";

/**
 * Records that a user verified their email address (also the new address of an email change:
 * auth publishes EmailVerified when the change link is used). Idempotent. Marks the user's gateway
 * views stale afterwards, so /api/user/account shows the new address at once rather than after the
 * view cache's 10 s.
 */
export async function markEmailVerified(
  { stores, changed }: Pick<AccountDeps, "stores" | "changed">,
  event: { userId: string; email: string },
): Promise<void> {
  if (!event.userId) throw new Error("EmailVerified without user_id");
  await stores.accounts.markEmailVerified(event.userId, event.email);
  await changed(event.userId);
}
