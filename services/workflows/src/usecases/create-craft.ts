import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller, metrics } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { startCraft } from "../domain/craft";
import { type CraftView, craftView } from "../domain/view";
import { requireField } from "./common";

export interface CreateCraftInput {
  workflowName: string;
  craftName: string;
  projectId: string;
  profileId: string;
}

export const MAX_CRAFT_NAME = 120;

/**
 * Starts a craft of the workflow's default version for the user, in the given project (or the
 * active one), prefilled from its profile; publishes CraftCreated.
 * @throws NOT_FOUND for an unknown workflow, CR_ERR_BAD_REQUEST for one without a definition yet.
 */
export async function createCraft(deps: WorkflowsDeps, caller: Caller, input: CreateCraftInput): Promise<CraftView> {
  const { userId } = caller;
  const workflowName = requireField(input.workflowName, "workflowName", "Workflow");
  if (!deps.registry.isListed(workflowName)) throw appError("NOT_FOUND", `Workflow ${workflowName} not found.`);
  const def = deps.registry.latest(workflowName);
  if (!def) {
    throw appError("CR_ERR_BAD_REQUEST", `${workflowName} is not available yet.`, {
      workflowName: `${workflowName} is not available yet.`,
    });
  }
  const craftName = input.craftName.trim() || `Untitled ${def.title}`;
  if (craftName.length > MAX_CRAFT_NAME) {
    throw badRequest({ craftName: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  }

  const { projectId, profile } = await deps.clients.profiles.resolve(caller, {
    projectId: input.projectId.trim(),
    profileId: input.profileId.trim(),
  });
  const now = deps.now();
  const progress = startCraft(def, profile, now);
  const id = randomUUID();
  const created = await deps.stores.crafts.create({
    _id: id,
    userId,
    projectId,
    profileId: profile?.profileId ?? "",
    workflowName: def.name,
    workflowVersion: def.version,
    craftName,
    ...progress,
    profile,
    outbox: [
      deps.events.created({ id, userId, projectId, workflowName: def.name, profileId: profile?.profileId ?? "" }),
    ],
  });
  deps.kick();
  deps.logger.info({ craftId: id, workflow: def.name, version: def.version }, "craft created");
  metrics.craftsStarted.add(1, { workflow: def.name });
  return craftView(def, created);
}
