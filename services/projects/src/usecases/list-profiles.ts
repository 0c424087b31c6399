import type { Caller } from "@crafter/kit";
import type { ProfileTypeName } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";
import { ownedProject } from "./owned";

/** The profiles of one of the caller's projects (one type when given), oldest first. @throws NOT_FOUND */
export async function listProfiles(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; type?: ProfileTypeName },
): Promise<Profile[]> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  return deps.stores.profiles.listFor(caller.userId, project.id, input.type);
}
