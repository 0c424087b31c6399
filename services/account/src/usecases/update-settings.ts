import { badRequest, type Caller } from "@crafter/kit";
import type { UserSettings } from "@crafter/validation";
import type { AccountDeps } from "../deps";
import { effectiveSettings, validateSettingsPatch } from "../domain/settings";

/**
 * Merges a partial settings object into the user's settings (spec section 5: empty values are
 * ignored, so a partial form never wipes a stored setting).
 * @param patch the settings the client sent, keyed by setting name.
 * @returns the user's full settings after the merge.
 * @throws AppError CR_ERR_BAD_REQUEST with a message per bad or unknown key.
 */
export async function updateSettings(
  { stores }: AccountDeps,
  caller: Caller,
  patch: Record<string, unknown>,
): Promise<UserSettings> {
  const checked = validateSettingsPatch(patch);
  if (!checked.ok) throw badRequest(checked.fields);
  return effectiveSettings(await stores.settings.apply(caller.userId, checked.patch));
}
