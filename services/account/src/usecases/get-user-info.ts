import type { AuthUser } from "@crafter/kit";
import type { AccountStores } from "../store";
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
 * consumed yet), it is created from the token's claims with the spec's defaults, idempotently.
 */
export async function getUserInfo(stores: Pick<AccountStores, "accounts">, user: AuthUser): Promise<UserInfo> {
  const existing = await stores.accounts.findByUser(user.userId);
  if (existing) return toUserInfo(existing);
  const created = await stores.accounts.ensure(user.userId, {
    email: user.email,
    displayName: user.display_name,
    role: user.role,
    emailVerified: user.email_verified,
  });
  return toUserInfo(created);
}
