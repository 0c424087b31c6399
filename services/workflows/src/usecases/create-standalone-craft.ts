import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { startCraft } from "../domain/craft";
import { type CraftView, craftView } from "../domain/view";
import { requireField } from "./common";
import { MAX_CRAFT_NAME } from "./create-craft";

/**
 * Starts a craft that belongs to no project and prefills from no profile (tools, smart
 * documents). Any available workflow may be started so; the headers' `standalone` flag says
 * which are offered as tools. Publishes CraftCreated.
 * @throws NOT_FOUND for an unknown workflow, CR_ERR_BAD_REQUEST for one without a definition
 * yet or a name over 120 characters.
 */
export async function createStandaloneCraft(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { workflowName: string; craftName: string },
): Promise<CraftView> {
  const { userId } = caller;
  const workflowName = requireField(input.workflowName, "workflowName", "Workflow");
  if (!deps.registry.isListed(workflowName)) throw appError("NOT_FOUND", `Workflow ${workflowName} not found.`);
  const def = deps.registry.latest(workflowName);
  if (!def) throw badRequest({ workflowName: `${workflowName} is not available yet.` });
  const craftName = input.craftName.trim() || `Untitled ${def.title}`;
  if (craftName.length > MAX_CRAFT_NAME)
    throw badRequest({ craftName: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  const id = randomUUID();
  const created = await deps.stores.crafts.create({
    _id: id,
    userId,
    projectId: "",
    profileId: "",
    workflowName: def.name,
    workflowVersion: def.version,
    craftName,
    ...startCraft(def, null, deps.now()),
    profile: null,
    outbox: [deps.events.created({ id, userId, projectId: "", workflowName: def.name })],
  });
  deps.kick();
  deps.logger.info({ craftId: id, workflow: def.name, standalone: true }, "craft created");
  return craftView(def, created);
}
