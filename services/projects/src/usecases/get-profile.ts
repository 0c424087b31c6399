import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";

/**
 * One of the caller's profiles.
 * @throws AppError NOT_FOUND when it is not the caller's; CR_ERR_BAD_REQUEST without an id.
 */
export async function getProfile(deps: ProjectsDeps, caller: Caller, profileId: string): Promise<Profile> {
  const { userId } = caller;
  if (!profileId) throw badRequest({ profileId: "Profile id is required" });
  const profile = await deps.stores.profiles.findById(userId, profileId);
  if (!profile) throw appError("NOT_FOUND", "Profile not found");
  return profile;
}
