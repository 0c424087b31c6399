import { randomUUID } from "node:crypto";
import { badRequest, emailError, metrics, normalizeEmail } from "@crafter/kit";
import { hash } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken, passwordError } from "../domain/tokens";

export interface SignUpInput {
  email: string;
  password: string;
  displayName: string;
}

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's minimum recommendation. */
// 2 = Algorithm.Argon2id (a const enum, which isolated modules cannot import).
export const hashPassword = (password: string) => hash(password, { algorithm: 2 });

/**
 * Registers a user (role owner, email unverified) and publishes UserRegistered with a fresh
 * verification token (stored hashed, single use, `VERIFY_TOKEN_TTL_S`).
 * Answers alike for new and existing emails: an existing unverified account gets a new
 * verification email; a verified one gets nothing.
 * @throws CR_ERR_BAD_REQUEST with field messages for a bad email or password.
 */
export async function signUp(deps: AuthDeps, input: SignUpInput): Promise<void> {
  const fields: Record<string, string> = {};
  const emailProblem = emailError(input.email);
  if (emailProblem) fields.email = emailProblem;
  const passwordProblem = passwordError(input.password);
  if (passwordProblem) fields.password = passwordProblem;
  const displayName = input.displayName.trim().slice(0, 80) || "Crafter";
  if (Object.keys(fields).length > 0) throw badRequest(fields);

  const email = normalizeEmail(input.email);
  // Hash before looking the email up, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const existing = await deps.stores.users.findByEmail(email);
  if (existing?.emailVerified) return;

  const now = deps.now();
  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + deps.config.VERIFY_TOKEN_TTL_S * 1000);
  const userId = existing?.id ?? randomUUID();
  const event = deps.events.registered({
    userId,
    email,
    displayName: existing?.displayName ?? displayName,
    role: existing?.role ?? "owner",
    verificationToken: token,
    verificationExpiresAt: expiresAt,
  });
  await deps.stores.oneTimeTokens.create(hashToken(token), userId, "verify", expiresAt);
  if (existing) {
    await deps.stores.users.updateWithEvent(existing.id, {}, event);
  } else {
    const created = await deps.stores.users.create({
      _id: userId,
      email,
      passwordHash,
      displayName,
      role: "owner",
      emailVerified: false,
      clientId: randomUUID(),
      outbox: [event],
    } as never);
    if (!created) return; // a parallel sign-up with the same email won; same answer.
    metrics.signups.add(1);
  }
  deps.kick();
}
