// Credits that come with money: the monthly grant of a paid plan and the packs sold in the wallet.
// The spec gives no amounts; these are Crafter's (about one credit per generation, the free tier's
// 100 credits lasting a first try). Prices in USD like the plans.

/** Credits a paid tier grants each calendar month (UTC) while the subscription is live; they expire at the month's end. */
export const MONTHLY_CREDITS: Readonly<Record<"core" | "pro", number>> = { core: 1000, pro: 3000 };

/** A credit pack sold through Stripe Checkout (one-off payment). Its credits do not expire. */
export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  /** USD. */
  price: number;
}

export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: "pack_500", name: "500 credits", credits: 500, price: 10 },
  { id: "pack_1500", name: "1,500 credits", credits: 1500, price: 25 },
  { id: "pack_5000", name: "5,000 credits", credits: 5000, price: 70 },
];

/** The pack with this id, or undefined. */
export function creditPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.id === id);
}

/** Credits a referral gives, once, to each side when the referred user first pays. */
export const REFERRAL_CREDITS = 500;
