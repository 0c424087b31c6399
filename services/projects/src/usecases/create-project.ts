import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { type ProjectInput, validateProjectInput } from "../domain/project-input";
import type { Profile } from "../store/profile.repository";
import type { Project } from "../store/project.repository";

/**
 * Creates a project and its PROJECT profile, and announces it with ProjectCreated (written to the
 * project's outbox in the same insert). The project becomes the user's active project when they
 * had none.
 * @throws AppError InvalidUrl ({ websiteUrl: "Invalid URL" }) when the
 *   website is the only problem, else CR_ERR_BAD_REQUEST with a message per bad field.
 */
export async function createProject(
  deps: ProjectsDeps,
  caller: Caller,
  input: ProjectInput,
): Promise<{ project: Project; profile: Profile }> {
  const { userId } = caller;
  const checked = validateProjectInput(input);
  if (!checked.ok) {
    throw checked.code === "InvalidUrl"
      ? appError("InvalidUrl", "Invalid URL", checked.fields)
      : badRequest(checked.fields);
  }
  const { name, description, audience, keywords, websiteUrl, timeZone } = checked.value;
  const projectId = randomUUID();
  const profileId = randomUUID();

  // No multi-document transactions (DESIGN section 5): the profile goes first, and the project
  // insert, which carries the event, is the commit point. A failed project insert removes the profile.
  const profile = await deps.stores.profiles.create({
    _id: profileId,
    userId,
    projectId,
    type: "PROJECT",
    name,
    description,
    audience,
    keywords,
    websiteUrl,
    fields: timeZone ? { timeZone } : {},
  });
  let project: Project;
  try {
    project = await deps.stores.projects.createWithEvent(
      { _id: projectId, userId, title: name, profileId },
      deps.events.created({ userId, projectId, projectTitle: name, profileId, timeZone }),
    );
  } catch (error) {
    await deps.stores.profiles.remove(userId, profileId).catch((cleanup) => {
      deps.logger.warn({ err: cleanup, profileId }, "could not remove the profile of a failed project");
    });
    throw error;
  }
  deps.kick();
  await deps.stores.active.setIfNone(userId, projectId);
  return { project, profile };
}
