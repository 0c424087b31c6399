import { randomUUID } from "node:crypto";
import { badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { displayName } from "../domain/craft-index";
import { copyName } from "../domain/results";
import { type CraftView, craftView } from "../domain/view";
import { indexFields } from "../store/craft.repository";
import { definitionOf, loadCraft } from "./common";
import { MAX_CRAFT_NAME } from "./create-craft";

/**
 * Copies a craft — definition version, project, profile, step states, values and results — into
 * a new craft named `craftName` or "<name> (copy)"; its token usage starts at zero (the copy
 * generated nothing) and it is not a favorite. Publishes CraftCreated.
 * @throws NOT_FOUND, CR_ERR_BAD_REQUEST for a name over 120 characters.
 */
export async function cloneCraft(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; craftName: string },
): Promise<CraftView> {
  const { userId } = caller;
  const source = await loadCraft(deps, caller, input.craftId);
  const def = definitionOf(deps, source);
  const craftName = input.craftName.trim() || copyName(displayName(source), MAX_CRAFT_NAME);
  if (craftName.length > MAX_CRAFT_NAME)
    throw badRequest({ craftName: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  const id = randomUUID();
  const created = await deps.stores.crafts.create({
    _id: id,
    userId,
    projectId: source.projectId,
    profileId: source.profileId,
    workflowName: source.workflowName,
    workflowVersion: source.workflowVersion,
    craftName,
    nameFromUser: true,
    ...indexFields({ craftName, nameFromUser: true }, source.steps),
    state: source.state,
    currentStep: source.currentStep,
    steps: structuredClone(source.steps),
    profile: source.profile ? structuredClone(source.profile) : null,
    completedAt: source.completedAt,
    outbox: [
      deps.events.created({
        id,
        userId,
        projectId: source.projectId,
        workflowName: source.workflowName,
        profileId: source.profileId,
      }),
    ],
  });
  deps.kick();
  deps.logger.info({ craftId: id, from: source.id }, "craft cloned");
  return craftView(def, created);
}
