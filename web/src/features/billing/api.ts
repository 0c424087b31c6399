import useSWR from "swr";
import { api, fetcher } from "../../api/api";
import type { Page } from "../../api/contract";
import { formatUsd } from "../../shared/format";

/** A plan card as billing serves it (`GET /api/billing/plans`, from @crafter/plans). Prices in USD. */
export interface PlanCard {
  id: "core" | "pro";
  name: string;
  planKey: { monthly: string; yearly: string };
  monthlyPrice: number;
  yearlyPrice: number;
  originalMonthlyPrice: number;
  originalYearlyPrice: number;
  yearlySavings: number;
  features: string[];
}

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  price: number;
}

export interface Plans {
  currency: string;
  plans: PlanCard[];
  creditPacks: CreditPack[];
}

export interface Subscription {
  tier: "free" | "core" | "pro";
  planKey: string;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  hasCustomer: boolean;
  /** The tier's limits. */
  limits: { profiles: number; emails: number; aiImages: number; voiceMinutes: number };
}

export type { Page } from "../../api/contract";

export interface Invoice {
  id: string;
  number: string;
  description: string;
  amountPaid: number;
  amountDue: number;
  currency: string;
  status: string;
  hostedInvoiceUrl: string;
  invoicePdf: string;
  createdAt: string | null;
}

export interface LedgerItem {
  id: string;
  kind: string;
  delta: number;
  source: string;
  reason: string;
  balanceAfter: number;
  expiresAt: string | null;
  createdAt: string | null;
}

export const billingKeys = {
  plans: () => "/api/billing/plans",
  subscription: () => "/api/billing/subscription",
  invoices: (page: number, pageSize = 10) => `/api/billing/invoices?page=${page}&pageSize=${pageSize}`,
  ledger: (page: number, pageSize = 10) => `/api/billing/ledger?page=${page}&pageSize=${pageSize}`,
} as const;

export const billingPaths = {
  checkout: "/api/billing/checkout",
  change: "/api/billing/subscription/change",
  cancel: "/api/billing/subscription/cancel",
  portal: "/api/billing/portal",
} as const;

/** The plan cards and credit packs (public: the /pricing page uses it too). */
export function usePlans() {
  return useSWR<Plans>(billingKeys.plans(), fetcher);
}

/** The user's subscription; `poll` refreshes it every 2 s (after Checkout, until the webhook lands). */
export function useSubscription(poll = false) {
  return useSWR<Subscription>(billingKeys.subscription(), fetcher, { refreshInterval: poll ? 2000 : 0 });
}

export function useInvoices(page: number) {
  return useSWR<Page<Invoice>>(billingKeys.invoices(page), fetcher);
}

export function useLedger(page: number) {
  return useSWR<Page<LedgerItem>>(billingKeys.ledger(page), fetcher);
}

/**
 * Starts a checkout and leaves for its page: Stripe's hosted Checkout, or where billing runs on a
 * Stripe test API (stripe-mock) the gateway's local test checkout.
 */
export async function startCheckout(
  body: { kind: "subscription"; planKey: string; source?: string } | { kind: "credits"; packId: string },
): Promise<void> {
  const { url } = await api.post<{ url: string }>(billingPaths.checkout, body);
  window.location.assign(url);
}

/** "$29" / "$24.17": USD as the cards show it. */
export function usd(amount: number): string {
  return formatUsd(amount);
}

/** Cents in a currency → "$12.00". */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() || "USD" }).format(
    cents / 100,
  );
}
