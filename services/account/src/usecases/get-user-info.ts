import type { Caller } from "@crafter/kit";
import type { AccountDeps } from "../deps";
import type { Account } from "../store/account.repository";

/** User info as the account service knows it (credits are billing's, added by the gateway). */
export interface UserInfo {
  userId: string;
  displayName: string;
  email: string;
  image: string;
  isSubscribed: boolean;
  access: string[];
  role: string;
}

export function toUserInfo(account: Account): UserInfo {
  return {
    userId: account.userId,
    displayName: account.displayName,
    email: account.email,
    image: account.image,
    isSubscribed: account.isSubscribed,
    access: account.access,
    role: account.role,
  };
}

/**
 * The caller's user info. When the account does not exist yet (the UserRegistered event was not
 * consumed yet), it is created from `claims` (the access token's) with the spec's defaults,
 * idempotently.
 */
export async function getUserInfo(
  { stores }: AccountDeps,
  caller: Caller,
  claims: { email: string; displayName: string; emailVerified: boolean },
): Promise<UserInfo> {
  // The token's role is the truth (auth raises ADMIN_EMAILS to admin); the stored one is a copy.
  const existing = await stores.accounts.findByUser(caller.userId);
  if (existing) return { ...toUserInfo(existing), role: caller.role || existing.role };
  const created = await stores.accounts.ensure(caller.userId, {
    email: claims.email,
    displayName: claims.displayName,
    role: caller.role,
    emailVerified: claims.emailVerified,
  });
  return { ...toUserInfo(created), role: caller.role || created.role };
}
