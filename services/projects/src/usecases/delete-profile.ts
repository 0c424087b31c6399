import { badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { ownedProfile } from "./owned";

/**
 * Deletes a PRODUCT, SERVICE or CAMPAIGN profile of the caller; its crafts stay in Contents.
 * @throws AppError NOT_FOUND, CR_ERR_BAD_REQUEST for the PROJECT profile (it goes with its project).
 */
export async function deleteProfile(deps: ProjectsDeps, caller: Caller, input: { profileId: string }): Promise<void> {
  const profile = await ownedProfile(deps, caller.userId, input.profileId);
  if (profile.type === "PROJECT") throw badRequest({ profileId: "The business profile goes with its project" });
  await deps.stores.profiles.remove(caller.userId, profile.id);
}
