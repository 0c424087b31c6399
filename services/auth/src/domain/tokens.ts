import { createHash, randomBytes } from "node:crypto";

/** A fresh opaque token: 256 random bits, base64url (43 characters). */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How opaque tokens are stored: SHA-256, hex. The raw token is never stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** @returns a message when the password breaks the policy (8–128 characters), else null. */
export function passwordError(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  return null;
}

/**
 * What a presented refresh token leads to: "rotate" (first use), "grace" (a second use inside the
 * grace window from the same client: rotates once, if the token's one grace use is still free),
 * "reuse" (the caller revokes the whole family) or "invalid".
 */
export type RefreshDecision = "rotate" | "grace" | "reuse" | "invalid";

export interface RefreshTokenState {
  expiresAt: Date;
  usedAt?: Date | null;
  revokedAt?: Date | null;
  /** SHA-256 of the User-Agent the token was issued to. */
  clientHash?: string;
}

/** The fingerprint of a client a refresh token is bound to: SHA-256 of its User-Agent. */
export function clientHashOf(userAgent: string): string {
  return hashToken(`ua:${userAgent}`);
}

/**
 * Decides the fate of a presented refresh token (DESIGN section 4):
 * - unknown, revoked or expired → "invalid";
 * - unused → "rotate";
 * - used within `graceMs` (parallel tabs racing on one cookie) by the client it was issued to
 *   (`clientHash`) → "grace" — allowed once per token, which the caller enforces;
 * - any other reuse → "reuse" (the caller revokes the whole family).
 */
export function decideRefresh(
  state: RefreshTokenState | null,
  now: Date,
  graceMs: number,
  clientHash = "",
): RefreshDecision {
  if (!state || state.revokedAt || state.expiresAt.getTime() <= now.getTime()) return "invalid";
  if (!state.usedAt) return "rotate";
  const inGrace = now.getTime() - state.usedAt.getTime() <= graceMs;
  const sameClient = (state.clientHash ?? "") === clientHash;
  return inGrace && sameClient ? "grace" : "reuse";
}
