import type { Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { ownedProfile } from "./owned";

/** The crafts written for one of the caller's profiles, newest first (the `crafts` section). @throws NOT_FOUND */
export async function listProfileCrafts(
  deps: ProjectsDeps,
  caller: Caller,
  input: { profileId: string },
): Promise<{ craftId: string; workflowName: string; createdAt: Date }[]> {
  const profile = await ownedProfile(deps, caller.userId, input.profileId);
  const crafts = await deps.stores.crafts.forProfile(caller.userId, profile.id);
  return crafts.map((craft) => ({ craftId: craft._id, workflowName: craft.workflowName, createdAt: craft.createdAt }));
}
