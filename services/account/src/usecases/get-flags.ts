import type { Caller } from "@crafter/kit";
import type { AccountDeps } from "../deps";
import { type FeatureFlags, resolveFlags } from "../domain/flags";

/** The caller's feature flags: the global defaults with the user's overrides applied. */
export async function getFlags(
  { stores }: Pick<AccountDeps, "stores">,
  caller: Pick<Caller, "userId">,
): Promise<FeatureFlags> {
  const [globals, overrides] = await Promise.all([stores.flags.all(), stores.flagOverrides.listForUser(caller.userId)]);
  return resolveFlags(globals, overrides);
}
