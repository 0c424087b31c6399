import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, Page, ResultOf, Schema } from "../contract";

/**
 * Reads and writes of the contract's "billing" section, typed by the gateway's OpenAPI document
 * (@crafter/client's generated types). Keys are the URLs they are read from (`apiKey`).
 */

export type Plans = ResultOf<"/api/billing/plans", "get">;
export type PlanCard = Schema<"PlanCard">;
export type CreditPack = Schema<"CreditPack">;
export type Subscription = Schema<"Subscription">;
export type Invoice = Schema<"Invoice">;
export type LedgerItem = Schema<"LedgerItem">;
export type PlanKey = PlanCard["planKey"]["monthly"];
export type CheckoutRequest = BodyOf<"/api/billing/checkout", "post">;
/** A credit pack's id as checkout takes it (the plan list's `CreditPack.id`). */
export type PackId = Extract<CheckoutRequest, { kind: "credits" }>["packId"];

export const BILLING_PAGE_SIZE = 10;

export const billingKeys = {
  plans: () => apiKey("/api/billing/plans"),
  subscription: () => apiKey("/api/billing/subscription"),
  invoices: (page: number) => apiKey("/api/billing/invoices", { query: { page, pageSize: BILLING_PAGE_SIZE } }),
  ledger: (page: number) => apiKey("/api/billing/ledger", { query: { page, pageSize: BILLING_PAGE_SIZE } }),
};

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
export async function startCheckout(body: CheckoutRequest): Promise<void> {
  const { url } = await http.post("/api/billing/checkout", { body });
  window.location.assign(url);
}

/** Switches a live subscription to another plan (prorated). @returns whether it is an upgrade or a downgrade. */
export function changePlan(planKey: PlanKey) {
  return http.post("/api/billing/subscription/change", { body: { planKey } });
}

/** Cancels at the period's end, or (`resume`) takes the cancellation back. */
export function cancelSubscription(resume: boolean) {
  return http.post("/api/billing/subscription/cancel", { body: { resume } });
}

/** Opens Stripe's customer portal. */
export async function openPortal(): Promise<void> {
  const { url } = await http.post("/api/billing/portal", { body: {} });
  window.location.assign(url);
}
