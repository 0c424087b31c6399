import { appError, badRequest } from "@crafter/kit";
import type { Profile } from "../store/profile.repository";
import type { ProjectsDeps } from "./deps";

/**
 * One of the caller's profiles.
 * @throws ConnectError NOT_FOUND when it is not the caller's; CR_ERR_BAD_REQUEST without an id.
 */
export async function getProfile(
  deps: Pick<ProjectsDeps, "profiles">,
  userId: string,
  profileId: string,
): Promise<Profile> {
  if (!profileId) throw badRequest({ profileId: "Profile id is required" });
  const profile = await deps.profiles.findById(userId, profileId);
  if (!profile) throw appError("NOT_FOUND", "Profile not found");
  return profile;
}
