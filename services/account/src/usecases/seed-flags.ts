import type { AccountDeps } from "../deps";
import { defaultGlobalFlags } from "../domain/flags";

/** Stores every spec flag that is not stored yet with its default (run at start). */
export async function seedFlags({ stores, logger }: AccountDeps): Promise<void> {
  const inserted = await stores.flags.seed(defaultGlobalFlags());
  if (inserted > 0) logger.info({ inserted }, "feature flags seeded");
}
