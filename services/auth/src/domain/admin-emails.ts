import { isRole, type Role } from "@crafter/roles";

/**
 * The role a session's tokens carry: the stored one, raised to admin for a verified address listed
 * in ADMIN_EMAILS (an address, or `@domain` for a whole domain; lower-case). A superadmin stays superadmin; an unverified address is never
 * raised, so signing up with an admin's address first gains nothing.
 */
export function effectiveRole(
  user: { email: string; role: string; emailVerified: boolean },
  adminEmails: readonly string[],
): Role {
  const stored: Role = isRole(user.role) ? user.role : "owner";
  if (stored === "superadmin") return stored;
  if (user.emailVerified && isAdminEmail(user.email, adminEmails)) return "admin";
  return stored;
}

/** An entry is an address, or `@domain` for every address of that domain (lower-case). */
export function isAdminEmail(email: string, adminEmails: readonly string[]): boolean {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf("@"));
  return adminEmails.some((entry) => entry === address || (entry.startsWith("@") && entry === domain));
}
