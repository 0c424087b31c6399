import type { FeatureFlags } from "./types";

/**
 * The one flag rule (spec section 6): a gated element shows only if its flag is in `enabledFeatures`
 * and not in `disabledFeatures`; no flag means always, and no flags yet (still loading) means not.
 */
export function flagAllows(
  flag: string | undefined,
  flags: Pick<FeatureFlags, "enabledFeatures" | "disabledFeatures"> | null | undefined,
): boolean {
  if (!flag) return true;
  return !!flags && flags.enabledFeatures.includes(flag) && !flags.disabledFeatures.includes(flag);
}
