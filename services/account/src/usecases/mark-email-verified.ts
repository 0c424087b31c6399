import type { AccountDeps } from "../deps";

/** Records that a user verified their email address. Idempotent. */
export async function markEmailVerified(
  { stores }: AccountDeps,
  event: { userId: string; email: string },
): Promise<void> {
  if (!event.userId) throw new Error("EmailVerified without user_id");
  await stores.accounts.markEmailVerified(event.userId, event.email);
}
