import type { WebhookEffect } from "./stripe-webhook";

/**
 * Credits of a referral (flag first_promoter), granted once when the referred user's
 * first payment succeeds: the referrer gets REFERRER_CREDITS, the referred user REFERRED_CREDITS.
 * They do not expire (like bought packs). 100 credits is a month of light use on the free tier's
 * scale; the referred user's 50 is a welcome on top of what they bought.
 */
export const REFERRER_CREDITS = 100;
export const REFERRED_CREDITS = 50;

/** Ledger keys of a referral's two grants: one per referred user and side, so each is written once. */
export const referralGrantKeys = (referredUserId: string) => ({
  referrer: `grant:referral:${referredUserId}:referrer`,
  referred: `grant:referral:${referredUserId}:referred`,
});

/** Alphabet of referral codes: lowercase letters and digits without look-alikes (0/o, 1/l/i). */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const REFERRAL_CODE_LENGTH = 8;

/** A referral code from random bytes (at least REFERRAL_CODE_LENGTH of them). */
export function referralCodeFrom(bytes: Uint8Array): string {
  if (bytes.length < REFERRAL_CODE_LENGTH) throw new Error("not enough random bytes");
  let code = "";
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) code += ALPHABET[bytes[i]! % ALPHABET.length];
  return code;
}

/**
 * The user a webhook effect shows paying, or "" when it is no successful payment: a paid credit
 * pack, a subscription's completed Checkout, or an invoice paid with money (not a 0 trial invoice).
 */
export function payingUser(effect: WebhookEffect, resolvedUserId: string): string {
  switch (effect.kind) {
    case "pack":
    case "subscribed":
      return resolvedUserId;
    case "invoice":
      return effect.paid && effect.invoice.amountPaid > 0 ? resolvedUserId : "";
    default:
      return "";
  }
}
