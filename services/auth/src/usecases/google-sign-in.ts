import { randomUUID, timingSafeEqual } from "node:crypto";
import { appError, denySession, hitRateLimit, metrics, rateLimitedError } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { type GoogleAttempt, GoogleOidcError } from "../clients/google-oidc";
import type { AuthDeps } from "../deps";
import {
  decideGoogleSignIn,
  type GoogleClaims,
  type GoogleIntent,
  googleClaims,
  googleIntent,
  safeReturnPath,
} from "../domain/google-identity";
import { hashToken, newOpaqueToken } from "../domain/tokens";
import type { User } from "../store/user.repository";
import { issueSession } from "./issue-session";
import { isExpiredAccount } from "./sign-up";

/** What a started attempt keeps in Redis (lost: the person starts again), keyed by its state's hash. */
interface StoredAttempt extends GoogleAttempt {
  /** SHA-256 of the browser binding (the gateway's cookie). */
  binding: string;
  intent: GoogleIntent;
  returnTo: string;
  referralCode: string;
}

/** A Google identity waiting for its account's password sign-in, keyed by the link token's hash. */
interface PendingLink {
  userId: string;
  sub: string;
  email: string;
}

const attemptKey = (state: string) => `google:attempt:${hashToken(state)}`;
const linkKey = (token: string) => `google:link:${hashToken(token)}`;
const REFERRAL_CODE = /^[a-z0-9]{4,32}$/;

function googleOf(deps: AuthDeps) {
  if (!deps.google) throw appError("CONFLICT", "Google sign-in is not configured on this server.");
  return deps.google;
}

function providerError(deps: AuthDeps, error: unknown): never {
  if (error instanceof GoogleOidcError) {
    deps.logger.warn(
      { failure: error.failure, reason: error.message },
      "Google sign-in: the provider's answer was refused",
    );
    if (error.failure === "unreachable") throw appError("UNAVAILABLE", "Google cannot be reached. Please try again.");
    throw appError("InvalidToken", "Google's answer could not be verified. Please try again.");
  }
  throw error;
}

/**
 * Starts a Google sign-in: a fresh `state`, `nonce` and PKCE verifier kept for GOOGLE_SIGNIN_ATTEMPT_S
 * (single use), bound to the browser by a secret the gateway keeps in an HttpOnly cookie.
 * @throws CONFLICT (not configured); UNAVAILABLE (discovery failed).
 */
export async function startGoogleSignIn(
  deps: AuthDeps,
  input: { intent: string; returnTo: string; referralCode: string },
): Promise<{ url: string; binding: string; expiresAt: Date }> {
  const google = googleOf(deps);
  const { url, attempt } = await google.start().catch((error: unknown) => providerError(deps, error));
  const binding = newOpaqueToken();
  const ttl = deps.config.GOOGLE_SIGNIN_ATTEMPT_S;
  const stored: StoredAttempt = {
    ...attempt,
    binding: hashToken(binding),
    intent: googleIntent(input.intent),
    returnTo: safeReturnPath(input.returnTo),
    referralCode: REFERRAL_CODE.test(input.referralCode) ? input.referralCode : "",
  };
  await deps.redis.set(attemptKey(attempt.state), JSON.stringify(stored), "EX", ttl);
  return { url, binding, expiresAt: new Date(deps.now().getTime() + ttl * 1000) };
}

export interface GoogleSignInResult {
  session?: Session;
  pendingLink?: { token: string; email: string; expiresAt: Date };
  returnTo: string;
  created: boolean;
}

/**
 * Finishes a Google sign-in from the callback's query: the attempt named by `state` (used once, and
 * only by the browser that started it), the code exchanged with its PKCE verifier, the ID token
 * verified (JWKS, issuer, audience, expiry, nonce), then `decideGoogleSignIn`. Counted against
 * SIGNIN_LIMIT_PER_IP as a password sign-in is.
 * @throws InvalidToken (state unknown, used, expired or another browser's; the provider's answer refused);
 *   EMAIL_NOT_VERIFIED; CONFLICT (not configured, or a parallel sign-up took the email); UNAVAILABLE; RATE_LIMITED.
 */
export async function completeGoogleSignIn(
  deps: AuthDeps,
  input: { callbackQuery: string; binding: string; ip: string; userAgent: string },
): Promise<GoogleSignInResult> {
  const google = googleOf(deps);
  const ipLimit = deps.config.SIGNIN_LIMIT_PER_IP;
  const perIp = await hitRateLimit(deps.redis, `signin:ip:${input.ip}`, ipLimit, 60);
  if (!perIp.allowed) throw rateLimitedError({ name: "signin-ip", limit: ipLimit, windowSeconds: 60 }, perIp);

  const state = new URLSearchParams(input.callbackQuery).get("state") ?? "";
  const raw = state ? await deps.redis.getdel(attemptKey(state)) : null;
  if (!raw) throw appError("InvalidToken", "This Google sign-in has expired or was already used. Please try again.");
  const attempt = JSON.parse(raw) as StoredAttempt;
  // Both are SHA-256 hex digests (64 characters).
  const presented = Buffer.from(hashToken(input.binding));
  const expected = Buffer.from(attempt.binding);
  if (!input.binding || presented.length !== expected.length || !timingSafeEqual(presented, expected))
    throw appError("InvalidToken", "This Google sign-in was started in another browser. Please try again.");

  const payload = await google
    .finish(input.callbackQuery, attempt)
    .catch((error: unknown) => providerError(deps, error));
  const claims = googleClaims(payload);
  const result = await signInAs(deps, claims, attempt, input);
  return { ...result, returnTo: attempt.returnTo };
}

async function signInAs(
  deps: AuthDeps,
  claims: GoogleClaims,
  attempt: StoredAttempt,
  client: { ip: string; userAgent: string },
  retried = false,
): Promise<Omit<GoogleSignInResult, "returnTo">> {
  const now = deps.now();
  const { users, identities } = deps.stores;
  const linked = claims.sub ? await identities.findBySubject("google", claims.sub) : null;
  const byEmail = claims.email ? await users.findByEmail(claims.email) : null;
  const outcome = decideGoogleSignIn(
    claims,
    linked?.userId,
    byEmail
      ? { id: byEmail.id, emailVerified: byEmail.emailVerified, expired: isExpiredAccount(byEmail, now) }
      : undefined,
  );
  const signIn = async (user: User, created: boolean) => ({
    session: await issueSession(deps, user, undefined, client.userAgent, client.ip),
    created,
  });

  switch (outcome.kind) {
    case "refuse_unverified":
      throw appError(
        "EMAIL_NOT_VERIFIED",
        "Google has not verified this Google account's email, so it cannot sign in to Crafter. Verify it with Google, or sign up with your email and a password.",
      );
    case "sign_in": {
      const user = await users.findById(outcome.userId);
      if (user) return signIn(user, false);
      // Linked to an account that was never made (a crash between the two writes): start over once.
      await identities.unlink(outcome.userId, "google");
      if (retried) throw appError("CONFLICT", "Please try again.");
      return signInAs(deps, claims, attempt, client, true);
    }
    case "create": {
      if (byEmail) await users.deleteExpired(byEmail.id, now);
      const userId = randomUUID();
      // The identity first: a crash before the account leaves a link the next sign-in repairs.
      if (!(await identities.link("google", claims.sub, userId, claims.email, now))) {
        if (retried) throw appError("CONFLICT", "Please try again.");
        return signInAs(deps, claims, attempt, client, true);
      }
      const displayName = claims.name || "Crafter";
      const created = await users.create({
        _id: userId,
        email: claims.email,
        passwordHash: "",
        displayName,
        role: "owner",
        emailVerified: true,
        clientId: randomUUID(),
        expiresAt: null,
        // Registered then verified, as an email sign-up is: free credits and the welcome flow once,
        // and no verification email (no token).
        outbox: [
          deps.events.registered({
            userId,
            email: claims.email,
            displayName,
            role: "owner",
            verificationToken: "",
            verificationExpiresAt: now,
            referralCode: attempt.referralCode,
          }),
          deps.events.emailVerified({ userId, email: claims.email }),
        ],
      });
      if (!created) {
        // A parallel sign-up took the email first.
        await identities.unlink(userId, "google");
        if (retried) throw appError("CONFLICT", "Please try again.");
        return signInAs(deps, claims, attempt, client, true);
      }
      metrics.signups.add(1);
      deps.kick();
      return signIn(created, true);
    }
    case "claim": {
      // Whoever signed up with this address never proved it: their password and sessions go.
      const families = await deps.stores.refreshTokens.revokeAllOfUser(outcome.userId, now);
      await Promise.all(families.map((sid) => denySession(deps.redis, sid, deps.config.ACCESS_TOKEN_TTL_S)));
      await deps.stores.oneTimeTokens.dropAll(outcome.userId, "verify");
      if (!(await identities.link("google", claims.sub, outcome.userId, claims.email, now)))
        throw appError("CONFLICT", "This account is already linked to another Google account.");
      await users.updateWithEvent(
        outcome.userId,
        { emailVerified: true, expiresAt: null, passwordHash: "" },
        deps.events.emailVerified({ userId: outcome.userId, email: claims.email }),
      );
      deps.kick();
      const user = await users.findById(outcome.userId);
      if (!user) throw appError("CONFLICT", "Please try again.");
      return signIn(user, false);
    }
    case "pending_link": {
      const token = newOpaqueToken();
      const ttl = deps.config.GOOGLE_LINK_TTL_S;
      const pending: PendingLink = { userId: outcome.userId, sub: claims.sub, email: claims.email };
      await deps.redis.set(linkKey(token), JSON.stringify(pending), "EX", ttl);
      return {
        pendingLink: { token, email: claims.email, expiresAt: new Date(now.getTime() + ttl * 1000) },
        created: false,
      };
    }
  }
}

/**
 * After a password sign-in of `userId`: links the pending Google identity of `token` when it waits
 * for that account (used once either way; another account's sign-in drops it).
 * @returns whether it was linked.
 */
export async function linkPendingGoogle(deps: AuthDeps, userId: string, token: string): Promise<boolean> {
  if (!token) return false;
  const raw = await deps.redis.getdel(linkKey(token));
  if (!raw) return false;
  const pending = JSON.parse(raw) as PendingLink;
  if (pending.userId !== userId) return false;
  return deps.stores.identities.link("google", pending.sub, userId, pending.email, deps.now());
}

/** The caller's linked identities, whether the account has a password, and whether Google sign-in is offered. */
export async function listLinkedIdentities(deps: AuthDeps, userId: string) {
  const [user, identities] = await Promise.all([
    deps.stores.users.findById(userId),
    deps.stores.identities.listOfUser(userId),
  ]);
  if (!user) throw appError("UNAUTHENTICATED");
  return {
    identities: identities.map((identity) => ({
      provider: identity.provider,
      email: identity.email,
      linkedAt: identity.createdAt,
    })),
    hasPassword: user.passwordHash !== "",
    googleConfigured: deps.google !== undefined,
  };
}

/**
 * Unlinks the caller's identity of `provider`.
 * @throws NOT_FOUND (none linked, or an unknown provider); CONFLICT when the account has no password
 *   (the identity is then its only way to sign in).
 */
export async function unlinkIdentity(deps: AuthDeps, userId: string, provider: string): Promise<void> {
  if (provider !== "google") throw appError("NOT_FOUND");
  const user = await deps.stores.users.findById(userId);
  if (!user) throw appError("UNAUTHENTICATED");
  const identities = await deps.stores.identities.listOfUser(userId);
  if (!identities.some((identity) => identity.provider === provider)) throw appError("NOT_FOUND");
  if (!user.passwordHash)
    throw appError(
      "CONFLICT",
      "Google is the only way to sign in to this account. Set a password first (Forgot password sends a link), then unlink Google.",
    );
  await deps.stores.identities.unlink(userId, provider);
}
