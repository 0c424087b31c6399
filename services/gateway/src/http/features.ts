import { appError } from "@crafter/kit";
import type { Clients } from "../clients";
import type { RouteContext } from "./registry";

/**
 * Refuses a request for a feature whose flag is off for the user. Spec section 6's one rule: a flag
 * is on when it is enabled and not disabled (the web's `flagAllows` shows or hides by the same rule;
 * this is the server's check, so a hidden page's API cannot be called directly).
 * @throws AppError FEATURE_DISABLED (403).
 */
export async function requireFeature(
  clients: Pick<Clients, "account">,
  as: RouteContext<unknown, unknown, unknown>["as"],
  flag: string,
): Promise<void> {
  const flags = await clients.account.getFlags({}, as);
  if (!flags.enabledFeatures.includes(flag) || flags.disabledFeatures.includes(flag))
    throw appError("FEATURE_DISABLED");
}
