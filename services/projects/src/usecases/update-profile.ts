import { appError, badRequest, type Caller } from "@crafter/kit";
import { splitProfileValues, validateProfileValues } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";
import { ownedProfile } from "./owned";
import { sectionsPatch } from "./sections";

/**
 * Changes the fields named in `values` and the sections named in `sections` of one of the
 * caller's profiles; other fields keep their values. A PROJECT profile's new name renames its project.
 * Announced with ProfileUpdated (the keys given), written in the same document update.
 * @throws AppError NOT_FOUND, CR_ERR_BAD_REQUEST (field errors, nothing to change), InvalidUrl.
 */
export async function updateProfile(
  deps: ProjectsDeps,
  caller: Caller,
  input: { profileId: string; values?: Record<string, unknown>; sections?: Record<string, unknown> },
): Promise<Profile> {
  const { userId } = caller;
  const profile = await ownedProfile(deps, userId, input.profileId);
  const values = input.values ?? {};
  const checked = validateProfileValues(profile.type, values, { partial: true });
  if (!checked.ok) {
    throw checked.code === "InvalidUrl"
      ? appError("InvalidUrl", "Invalid URL", checked.fields)
      : badRequest(checked.fields);
  }
  const set: Record<string, unknown> = sectionsPatch(input.sections ?? {});
  const { core, extra } = splitProfileValues(checked.values);
  for (const [key, value] of Object.entries(core)) set[key] = value;
  for (const [key, value] of Object.entries(extra)) set[`fields.${key}`] = value;
  if (Object.keys(set).length === 0) throw badRequest({ values: "Nothing to change" });
  const name = typeof core.name === "string" ? core.name : profile.name;
  const changed = [...Object.keys(core), ...Object.keys(extra), ...Object.keys(input.sections ?? {})];
  const timeZone = typeof extra.timeZone === "string" ? extra.timeZone : profile.fields?.timeZone;
  const event = deps.events.profileUpdated(
    { ...profile, name, timeZone: typeof timeZone === "string" ? timeZone : "" },
    changed,
  );
  const updated = await deps.stores.profiles.patch(userId, profile.id, set, event);
  if (!updated) throw appError("NOT_FOUND", "Profile not found");
  deps.kick();
  if (profile.type === "PROJECT" && typeof core.name === "string" && core.name !== profile.name) {
    await deps.stores.projects.rename(userId, profile.projectId, core.name);
  }
  return updated;
}
