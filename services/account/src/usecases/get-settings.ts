import type { Caller } from "@crafter/kit";
import type { UserSettings } from "@crafter/validation";
import type { AccountDeps } from "../deps";
import { effectiveSettings } from "../domain/settings";

/** The user's settings: every default of spec section 3 overlaid with what the user changed. */
export async function getSettings({ stores }: AccountDeps, caller: Caller): Promise<UserSettings> {
  return effectiveSettings(await stores.settings.get(caller.userId));
}
