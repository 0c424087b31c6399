import { type FeatureFlags, resolveFlags } from "../domain/flags";
import type { AccountStores } from "../store";

/** The caller's feature flags: the global defaults with the user's overrides applied. */
export async function getFlags(
  stores: Pick<AccountStores, "flags" | "flagOverrides">,
  userId: string,
): Promise<FeatureFlags> {
  const [globals, overrides] = await Promise.all([stores.flags.all(), stores.flagOverrides.listForUser(userId)]);
  return resolveFlags(globals, overrides);
}
