import type { UserSettings } from "@crafter/kit/validation";
import { effectiveSettings } from "../domain/settings";
import type { AccountStores } from "../store";

/** The user's settings: every default of spec section 3 overlaid with what the user changed. */
export async function getSettings(stores: Pick<AccountStores, "settings">, userId: string): Promise<UserSettings> {
  return effectiveSettings(await stores.settings.get(userId));
}
