import type { Connection } from "mongoose";
import { balanceModel, LedgerRepository, ledgerEntryModel } from "./ledger.repository";
import { SubscriptionRepository, subscriptionModel } from "./subscription.repository";
import { UsageRepository, usageModels } from "./usage.repository";

/** Every repository of the billing service, over its own database. */
export interface BillingStores {
  ledger: LedgerRepository;
  subscriptions: SubscriptionRepository;
  usage: UsageRepository;
}

/** Builds the repositories and waits for their unique indexes, which the ledger's safety rests on. */
export async function createStores(connection: Connection): Promise<BillingStores> {
  const ledger = ledgerEntryModel(connection);
  const balances = balanceModel(connection);
  const subscriptions = subscriptionModel(connection);
  const usage = usageModels(connection);
  await Promise.all([
    ledger.init(),
    balances.init(),
    subscriptions.init(),
    usage.entries.init(),
    usage.snapshots.init(),
    usage.limits.init(),
  ]);
  return {
    ledger: new LedgerRepository(ledger, balances),
    subscriptions: new SubscriptionRepository(subscriptions),
    usage: new UsageRepository(usage.entries, usage.snapshots, usage.limits),
  };
}
