import type { KeyRing, OutboxModel } from "@crafter/kit";
import type { Connection } from "mongoose";
import { AccountDirectory, AccountRepository, accountModel, migrateAccountsToUserIds } from "./account.repository";
import { AuditRepository, auditModel } from "./audit.repository";
import { ConnectionRepository, connectionAttemptModel, connectionModel } from "./connection.repository";
import { type FlagCacheOptions, FlagRepository, flagModel } from "./flag.repository";
import { FlagOverrideRepository, flagOverrideModel } from "./flag-override.repository";
import { SettingsRepository, settingModel } from "./settings.repository";
import { ShopifyRepository, shopifyInstallModel, shopifyWebhookModel } from "./shopify.repository";
import { StatsRepository, statFactModel } from "./stats.repository";

/** Every repository of the account service, over its own database. */
export interface AccountStores {
  accounts: AccountRepository;
  settings: SettingsRepository;
  flags: FlagRepository;
  flagOverrides: FlagOverrideRepository;
  /** Every account, for admin use cases only. */
  directory: AccountDirectory;
  /** The append-only log of admin actions. */
  audit: AuditRepository;
  /** Usage facts from events (crafts, credits), for admin's charts. */
  stats: StatsRepository;
  /** Projects' connections to integrations, their tokens sealed. */
  connections: ConnectionRepository;
  /** Shopify's webhooks received (once each) and the projects each shop was installed in. */
  shopify: ShopifyRepository;
  /** The models whose documents carry an outbox (the relay publishes them). */
  outbox: OutboxModel[];
}

/**
 * Builds the repositories and waits until their indexes (the unique ones the upserts rely on)
 * exist, so the first request cannot race the index build.
 */
export async function createStores(
  connection: Connection,
  options: { flagCache?: FlagCacheOptions; keys?: KeyRing | undefined } = {},
): Promise<AccountStores> {
  const models = {
    accounts: accountModel(connection),
    settings: settingModel(connection),
    flags: flagModel(connection),
    flagOverrides: flagOverrideModel(connection),
    audit: auditModel(connection),
    stats: statFactModel(connection),
    connections: connectionModel(connection),
    connectionAttempts: connectionAttemptModel(connection),
    shopifyWebhooks: shopifyWebhookModel(connection),
    shopifyInstalls: shopifyInstallModel(connection),
  };
  await Promise.all(Object.values(models).map((model) => model.init()));
  await migrateAccountsToUserIds(connection, models.accounts);
  const directory = new AccountDirectory(models.accounts);
  await directory.backfillSearchTokens();
  return {
    directory,
    audit: new AuditRepository(models.audit),
    stats: new StatsRepository(models.stats),
    accounts: new AccountRepository(models.accounts),
    settings: new SettingsRepository(models.settings),
    flags: new FlagRepository(models.flags, options.flagCache),
    flagOverrides: new FlagOverrideRepository(models.flagOverrides),
    connections: new ConnectionRepository(models.connections, models.connectionAttempts, connection, options.keys),
    shopify: new ShopifyRepository(models.shopifyWebhooks, models.shopifyInstalls),
    outbox: [models.connections, models.shopifyWebhooks],
  };
}
