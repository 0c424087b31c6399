import { rpcAccess } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { PaymentsService } from "@crafter/proto/crafter/billing/v1/payments_pb";
import { ReferralsService } from "@crafter/proto/crafter/billing/v1/referrals_pb";

/**
 * Who may call each BillingService RPC. The gateway reads the user's own credits with the user's
 * token; workflows spends and gives back credits with its service token, naming the user, also
 * from background work. A user cannot debit or refund directly (a refund would give credits back
 * for work that succeeded).
 */
export const access = rpcAccess(BillingService, {
  getCredits: ["user"],
  debit: ["service:workflows", "service:media"],
  refund: ["service:workflows", "service:media"],
  // Plans and usage (docs/second-half-contract.md): the user's own plan, and the services that
  // enforce its limits (contacts: profiles; media: AI images and voice; notifications: emails).
  getPlan: ["user", "service:gateway", "service:contacts", "service:media", "service:notifications"],
  reserveUsage: ["service:media", "service:notifications", "service:workflows"],
  releaseUsage: ["service:media", "service:notifications", "service:workflows"],
  // Admin grants: the account service's admin RPCs check the role and audit first.
  grantCredits: ["service:account"],
  // Admin's MRR chart: the account service's GetStats checks the role first.
  getRevenue: ["service:account"],
});

/**
 * PaymentsService: a user's own subscription, checkout, portal and history. Stripe's webhook
 * deliveries reach billing only through the gateway, which passes them on untouched.
 */
export const paymentsAccess = rpcAccess(PaymentsService, {
  getSubscription: ["user"],
  createCheckout: ["user"],
  changePlan: ["user"],
  cancelSubscription: ["user"],
  createPortalSession: ["user"],
  handleStripeWebhook: ["service:gateway"],
  // The local test checkout's page and Pay button (the checkout id is the secret, as a hosted
  // Checkout URL is): served by the gateway without a session.
  getTestCheckout: ["service:gateway"],
  completeTestCheckout: ["service:gateway"],
  listInvoices: ["user"],
  listLedger: ["user"],
});

/** ReferralsService: the caller's own referral code and counts. */
export const referralsAccess = rpcAccess(ReferralsService, { getReferrals: ["user"] });
