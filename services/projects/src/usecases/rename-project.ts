import { badRequest, type Caller } from "@crafter/kit";
import { validateProfileValues } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import type { Project } from "../store/project.repository";
import { ownedProject } from "./owned";

/**
 * Renames one of the caller's projects; its PROJECT profile takes the same name (ProfileUpdated).
 * @throws AppError NOT_FOUND (not the caller's), CR_ERR_BAD_REQUEST ({ title }) for an empty or too long title.
 */
export async function renameProject(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; title: string },
): Promise<Project> {
  const { userId } = caller;
  const project = await ownedProject(deps, userId, input.projectId);
  const checked = validateProfileValues("PROJECT", { name: input.title }, { partial: true });
  if (!checked.ok) throw badRequest({ title: checked.fields.name ?? "Invalid title" });
  const title = checked.values.name as string;
  const renamed = await deps.stores.projects.rename(userId, project.id, title);
  const event = deps.events.profileUpdated(
    { userId, projectId: project.id, id: project.profileId, type: "PROJECT", name: title },
    ["name"],
  );
  if (await deps.stores.profiles.patch(userId, project.profileId, { name: title }, event)) deps.kick();
  return renamed ?? { ...project, title };
}
