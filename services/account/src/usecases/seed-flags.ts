import type { Logger } from "@crafter/kit";
import { defaultGlobalFlags } from "../domain/flags";
import type { AccountStores } from "../store";

/** Stores every spec flag that is not stored yet with its default (run at start). */
export async function seedFlags(stores: Pick<AccountStores, "flags">, logger: Logger): Promise<void> {
  const inserted = await stores.flags.seed(defaultGlobalFlags());
  if (inserted > 0) logger.info({ inserted }, "feature flags seeded");
}
