import { randomUUID } from "node:crypto";
import { badRequest, emailError, metrics, normalizeEmail } from "@crafter/kit";
import { hash } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken, passwordError } from "../domain/tokens";
import type { User } from "../store/user.repository";
import { countMailRequest, takeMailBudget } from "./mail-limit";

export interface SignUpInput {
  email: string;
  password: string;
  displayName: string;
  /** The client IP, already resolved by trust (domain/client-ip). */
  ip: string;
  /** The `ref` of a referral link; kept only when it has a referral code's shape. */
  referralCode?: string;
}

/** A referral code's shape (billing makes them: 8 lowercase letters and digits; up to 32 accepted). */
const REFERRAL_CODE = /^[a-z0-9]{4,32}$/;

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's minimum recommendation. */
// 2 = Algorithm.Argon2id (a const enum, which isolated modules cannot import).
export const hashPassword = (password: string) => hash(password, { algorithm: 2 });

/** True for an unverified account whose time ran out (it counts as absent). */
export function isExpiredAccount(user: Pick<User, "emailVerified" | "expiresAt">, now: Date): boolean {
  return !user.emailVerified && !!user.expiresAt && user.expiresAt.getTime() <= now.getTime();
}

/**
 * Registers a user (role owner, email unverified, removed after `UNVERIFIED_ACCOUNT_TTL_S` unless
 * verified) and publishes UserRegistered with a fresh verification token (stored hashed, single
 * use, `VERIFY_TOKEN_TTL_S`). The token carries this sign-up's password hash and name: verifying
 * with it sets them (against account pre-hijacking: a sign-up made earlier by someone else never
 * keeps its password).
 * Answers alike for new and existing emails: an existing unverified account gets a new
 * verification email; a verified one gets nothing. Mails are rate limited per address (silently)
 * and per IP (429).
 * @throws CR_ERR_BAD_REQUEST with field messages for a bad email or password; RATE_LIMITED.
 */
export async function signUp(deps: AuthDeps, input: SignUpInput): Promise<void> {
  const fields: Record<string, string> = {};
  const emailProblem = emailError(input.email);
  if (emailProblem) fields.email = emailProblem;
  const passwordProblem = passwordError(input.password);
  if (passwordProblem) fields.password = passwordProblem;
  const displayName = input.displayName.trim().slice(0, 80) || "Crafter";
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  await countMailRequest(deps, input.ip);

  const email = normalizeEmail(input.email);
  // Hash before looking the email up, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  let existing = await deps.stores.users.findByEmail(email);
  if (existing && isExpiredAccount(existing, now)) {
    await deps.stores.users.deleteExpired(existing.id, now);
    existing = null;
  }
  if (existing?.emailVerified) return;
  if (!(await takeMailBudget(deps, email))) return;

  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + deps.config.VERIFY_TOKEN_TTL_S * 1000);
  const accountExpiresAt = new Date(now.getTime() + deps.config.UNVERIFIED_ACCOUNT_TTL_S * 1000);
  const userId = existing?.id ?? randomUUID();
  const event = deps.events.registered({
    userId,
    email,
    displayName: existing?.displayName ?? displayName,
    role: existing?.role ?? "owner",
    verificationToken: token,
    verificationExpiresAt: expiresAt,
    referralCode: REFERRAL_CODE.test(input.referralCode ?? "") ? input.referralCode : "",
  });
  await deps.stores.oneTimeTokens.create(hashToken(token), userId, "verify", expiresAt, { passwordHash, displayName });
  if (existing) {
    await deps.stores.users.updateWithEvent(existing.id, { expiresAt: accountExpiresAt }, event);
  } else {
    const created = await deps.stores.users.create({
      _id: userId,
      email,
      passwordHash,
      displayName,
      role: "owner",
      emailVerified: false,
      clientId: randomUUID(),
      expiresAt: accountExpiresAt,
      outbox: [event],
    } as never);
    if (!created) return; // a parallel sign-up with the same email won; same answer.
    metrics.signups.add(1);
  }
  deps.kick();
}
