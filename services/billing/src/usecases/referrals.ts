import { randomBytes } from "node:crypto";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import {
  REFERRAL_CODE_LENGTH,
  REFERRED_CREDITS,
  REFERRER_CREDITS,
  referralCodeFrom,
  referralGrantKeys,
} from "../domain/referrals";
import { grantCredits } from "./grant-credits";

export interface ReferralsView {
  code: string;
  signedUp: number;
  paid: number;
  referrerCredits: number;
  referredCredits: number;
}

/** The user's referral code, made on first use (random; a clash with another user's is retried). */
async function codeFor(deps: BillingDeps, userId: string): Promise<string> {
  const { referrals } = deps.stores;
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await referrals.codeOf(userId);
    if (existing) return existing;
    const code = referralCodeFrom(randomBytes(REFERRAL_CODE_LENGTH));
    if (await referrals.addCode(userId, code, deps.now())) return code;
    // Either a concurrent call gave the user a code (read it next time round) or the code is another's.
  }
  throw new Error("could not make a referral code");
}

/** The caller's referral link code and how their referrals went (`/app/settings/referrals`). */
export async function getReferrals(deps: BillingDeps, caller: Caller): Promise<ReferralsView> {
  const code = await codeFor(deps, caller.userId);
  const { signedUp, paid } = await deps.stores.referrals.counts(caller.userId);
  return { code, signedUp, paid, referrerCredits: REFERRER_CREDITS, referredCredits: REFERRED_CREDITS };
}

/**
 * Records who referred a newly registered user (UserRegistered with a referral code), once per
 * user: a redelivered or repeated registration changes nothing. Unknown codes and one's own are ignored.
 * @returns whether a referral was recorded by this call.
 */
export async function recordReferral(deps: BillingDeps, input: { userId: string; code: string }): Promise<boolean> {
  if (!input.userId || !input.code) return false;
  const referrerId = await deps.stores.referrals.ownerOf(input.code);
  if (!referrerId || referrerId === input.userId) return false;
  const recorded = await deps.stores.referrals.record(input.userId, referrerId, input.code, deps.now());
  if (recorded) deps.logger.info({ userId: input.userId, referrerId }, "referral recorded");
  return recorded;
}

/**
 * After a successful payment of `userId`: when someone referred them, both get their referral
 * credits, exactly once however often (or concurrently) it runs: each grant has a unique ledger
 * key per referred user, and the reward marker is an insert-once.
 */
export async function rewardReferral(deps: BillingDeps, userId: string): Promise<void> {
  const referrerId = await deps.stores.referrals.referrerOf(userId);
  if (!referrerId) return;
  const keys = referralGrantKeys(userId);
  await grantCredits(deps, {
    userId: referrerId,
    key: keys.referrer,
    amount: REFERRER_CREDITS,
    expiresAt: null,
    source: "referral",
  });
  await grantCredits(deps, {
    userId,
    key: keys.referred,
    amount: REFERRED_CREDITS,
    expiresAt: null,
    source: "referral",
  });
  if (await deps.stores.referrals.markRewarded(userId, referrerId, deps.now())) {
    deps.logger.info({ userId, referrerId }, "referral rewarded");
  }
}
