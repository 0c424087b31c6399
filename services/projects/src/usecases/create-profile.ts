import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { type ProfileTypeName, splitProfileValues, validateProfileValues } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import type { Profile } from "../store/profile.repository";
import { ownedProject } from "./owned";
import { emptySections } from "./sections";

/**
 * Creates a PRODUCT, SERVICE or CAMPAIGN profile in one of the caller's projects.
 * @throws AppError NOT_FOUND (project), CR_ERR_BAD_REQUEST (a PROJECT or unknown type; field
 *   errors), InvalidUrl when URLs are the only problem.
 */
export async function createProfile(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; type: ProfileTypeName | undefined; values: Record<string, unknown> },
): Promise<Profile> {
  const { userId } = caller;
  if (!input.type || input.type === "PROJECT")
    throw badRequest({ type: "The type must be PRODUCT, SERVICE or CAMPAIGN" });
  const project = await ownedProject(deps, userId, input.projectId);
  const checked = validateProfileValues(input.type, input.values);
  if (!checked.ok) {
    throw checked.code === "InvalidUrl"
      ? appError("InvalidUrl", "Invalid URL", checked.fields)
      : badRequest(checked.fields);
  }
  const { core, extra } = splitProfileValues(checked.values);
  return deps.stores.profiles.create({
    _id: randomUUID(),
    userId,
    projectId: project.id,
    type: input.type,
    name: (core.name as string) ?? "",
    description: (core.description as string) ?? "",
    audience: (core.audience as string) ?? "",
    keywords: (core.keywords as string[]) ?? [],
    websiteUrl: (core.websiteUrl as string) ?? "",
    fields: extra,
    sections: emptySections(),
  });
}
