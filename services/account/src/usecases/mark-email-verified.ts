import type { AccountStores } from "../store";

/** Records that a user verified their email address. Idempotent. */
export async function markEmailVerified(
  stores: Pick<AccountStores, "accounts">,
  event: { userId: string; email: string },
): Promise<void> {
  if (!event.userId) throw new Error("EmailVerified without user_id");
  await stores.accounts.markEmailVerified(event.userId, event.email);
}
