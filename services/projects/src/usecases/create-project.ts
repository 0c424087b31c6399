import { randomUUID } from "node:crypto";
import { appError, badRequest, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import { ProjectCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { type ProjectInput, validateProjectInput } from "../domain/project-input";
import type { Profile } from "../store/profile.repository";
import type { Project } from "../store/project.repository";
import type { ProjectsDeps } from "./deps";

/**
 * Creates a project and its PROJECT profile, and announces it with ProjectCreated (written to the
 * project's outbox in the same insert). The project becomes the user's active project when they
 * had none.
 * @throws ConnectError InvalidArgument with code InvalidUrl ({ websiteUrl: "Invalid URL" }) when the
 *   website is the only problem, else CR_ERR_BAD_REQUEST with a message per bad field.
 */
export async function createProject(
  deps: ProjectsDeps,
  userId: string,
  input: ProjectInput,
): Promise<{ project: Project; profile: Profile }> {
  const checked = validateProjectInput(input);
  if (!checked.ok) {
    throw checked.code === "InvalidUrl"
      ? appError("InvalidUrl", "Invalid URL", checked.fields)
      : badRequest(checked.fields);
  }
  const { name, description, audience, keywords, websiteUrl } = checked.value;
  const projectId = randomUUID();
  const profileId = randomUUID();

  // No multi-document transactions (DESIGN section 5): the profile goes first, and the project
  // insert, which carries the event, is the commit point. A failed project insert removes the profile.
  const profile = await deps.profiles.create({
    _id: profileId,
    userId,
    projectId,
    type: "PROJECT",
    name,
    description,
    audience,
    keywords,
    websiteUrl,
    fields: {},
  });
  let project: Project;
  try {
    project = await deps.projects.createWithEvent(
      { _id: projectId, userId, title: name, profileId },
      outboxEntry(topicName(deps.namespace, TOPICS.projectsProject), projectId, ProjectCreatedSchema, {
        userId,
        projectId,
        projectTitle: name,
        profileId,
      }),
    );
  } catch (error) {
    await deps.profiles.remove(userId, profileId).catch((cleanup) => {
      deps.logger.warn({ err: cleanup, profileId }, "could not remove the profile of a failed project");
    });
    throw error;
  }
  deps.kickRelay();
  await deps.active.setIfNone(userId, projectId);
  return { project, profile };
}
