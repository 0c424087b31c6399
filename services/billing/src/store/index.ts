import type { Connection } from "mongoose";
import { CheckoutRepository, checkoutModels } from "./checkout.repository";
import { balanceModel, LedgerRepository, ledgerEntryModel } from "./ledger.repository";
import { MrrRepository, mrrChangeModel } from "./mrr.repository";
import { PaymentsRepository, paymentsModels } from "./payments.repository";
import { ReferralRepository, referralModels } from "./referral.repository";
import { SubscriptionRepository, subscriptionModel } from "./subscription.repository";
import { UsageRepository, usageModels } from "./usage.repository";

/** Every repository of the billing service, over its own database. */
export interface BillingStores {
  ledger: LedgerRepository;
  subscriptions: SubscriptionRepository;
  /** Stripe's side: handled webhook events, customers, invoices. */
  payments: PaymentsRepository;
  usage: UsageRepository;
  /** Referral codes, referrals and their rewards. */
  referrals: ReferralRepository;
  /** What each subscription state adds to MRR, over time (Admin's charts). */
  mrr: MrrRepository;
  /** Crafter's own record of each checkout, and the local test checkout's payments. */
  checkouts: CheckoutRepository;
}

/** Builds the repositories and waits for their unique indexes, which the ledger's safety rests on. */
export async function createStores(connection: Connection): Promise<BillingStores> {
  const ledger = ledgerEntryModel(connection);
  const balances = balanceModel(connection);
  const subscriptions = subscriptionModel(connection);
  const payments = paymentsModels(connection);
  const usage = usageModels(connection);
  const referrals = referralModels(connection);
  const mrr = mrrChangeModel(connection);
  const checkouts = checkoutModels(connection);
  await Promise.all([
    mrr.init(),
    ledger.init(),
    balances.init(),
    subscriptions.init(),
    payments.events.init(),
    payments.customers.init(),
    payments.invoices.init(),
    usage.entries.init(),
    usage.snapshots.init(),
    usage.limits.init(),
    referrals.codes.init(),
    referrals.referrals.init(),
    referrals.rewards.init(),
    checkouts.checkouts.init(),
    checkouts.payments.init(),
  ]);
  return {
    ledger: new LedgerRepository(ledger, balances),
    subscriptions: new SubscriptionRepository(subscriptions),
    payments: new PaymentsRepository(payments.events, payments.customers, payments.invoices),
    usage: new UsageRepository(usage.entries, usage.snapshots, usage.limits),
    referrals: new ReferralRepository(referrals.codes, referrals.referrals, referrals.rewards),
    mrr: new MrrRepository(mrr),
    checkouts: new CheckoutRepository(checkouts.checkouts, checkouts.payments),
  };
}
