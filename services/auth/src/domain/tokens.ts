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

/** What a presented refresh token leads to. */
export type RefreshDecision = "rotate" | "reuse" | "invalid";

export interface RefreshTokenState {
  expiresAt: Date;
  usedAt?: Date | null;
  revokedAt?: Date | null;
}

/**
 * Decides the fate of a presented refresh token (DESIGN section 4):
 * - unknown, revoked or expired → "invalid";
 * - already used, outside the grace window → "reuse" (the caller revokes the whole family);
 * - unused, or used within `graceMs` (parallel tabs racing on one cookie) → "rotate".
 */
export function decideRefresh(state: RefreshTokenState | null, now: Date, graceMs: number): RefreshDecision {
  if (!state || state.revokedAt || state.expiresAt.getTime() <= now.getTime()) return "invalid";
  if (state.usedAt && now.getTime() - state.usedAt.getTime() > graceMs) return "reuse";
  return "rotate";
}
