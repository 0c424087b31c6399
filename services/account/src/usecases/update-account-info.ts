import { appError, badRequest, type Caller } from "@crafter/kit";
import type { AccountDeps } from "../deps";
import { toUserInfo, type UserInfo } from "./get-user-info";

export const MAX_DISPLAY_NAME = 80;

/** An image is a link we can show: https, or the gateway's own /media/ path. */
export function isShowableImage(image: string): boolean {
  if (image.startsWith("/media/")) return true;
  try {
    return new URL(image).protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Changes the caller's display name and image (settings/account-info); an empty field keeps the
 * stored value (the settings merge rule).
 * @throws CR_ERR_BAD_REQUEST (displayName too long or only spaces, image not https or /media/);
 * NOT_FOUND when the account does not exist yet.
 */
export async function updateAccountInfo(
  deps: AccountDeps,
  caller: Caller,
  input: { displayName: string; image: string },
): Promise<UserInfo> {
  const displayName = input.displayName.trim();
  const image = input.image.trim();
  const fields: Record<string, string> = {};
  if (input.displayName && !displayName) fields.displayName = "Name is required";
  if (displayName.length > MAX_DISPLAY_NAME) fields.displayName = `At most ${MAX_DISPLAY_NAME} characters`;
  if (image && (image.length > 2048 || !isShowableImage(image))) fields.image = "Use an https image link";
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  const updated = await deps.stores.accounts.updateInfo(caller.userId, { displayName, image });
  if (!updated) throw appError("NOT_FOUND", "Your account is not ready yet. Reload and try again.");
  return { ...toUserInfo(updated), role: caller.role || updated.role };
}
