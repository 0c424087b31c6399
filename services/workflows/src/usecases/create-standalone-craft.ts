import { randomUUID } from "node:crypto";
import type { Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { startCraft } from "../domain/craft";
import { type CraftView, craftView } from "../domain/view";
import { givenName, latestDefinition, newCraftFields } from "./create-craft";

/**
 * Starts a craft that belongs to no project and prefills from no profile (tools, smart
 * documents). Any available workflow may be started so; the headers' `standalone` flag says
 * which are offered as tools. Publishes CraftCreated. With `preview`, stores nothing and answers
 * the craft with id "" (see createCraft).
 * @throws NOT_FOUND for an unknown workflow, CR_ERR_BAD_REQUEST for one without a definition
 * yet or a name over 120 characters.
 */
export async function createStandaloneCraft(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { workflowName: string; craftName: string; preview?: boolean },
): Promise<CraftView> {
  const { userId } = caller;
  const def = latestDefinition(deps, input.workflowName);
  const name = givenName(input.craftName);
  const now = deps.now();
  const progress = startCraft(def, null, now);
  const fields = {
    userId,
    projectId: "",
    profileId: "",
    workflowName: def.name,
    workflowVersion: def.version,
    ...newCraftFields(def, name, progress.steps),
    ...progress,
    profile: null,
  };
  if (input.preview) {
    return craftView(def, {
      ...fields,
      id: "",
      usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
      createdAt: now,
      updatedAt: now,
    });
  }
  const id = randomUUID();
  const created = await deps.stores.crafts.create({
    _id: id,
    ...fields,
    outbox: [deps.events.created({ id, userId, projectId: "", workflowName: def.name })],
  });
  deps.kick();
  deps.logger.info({ craftId: id, workflow: def.name, standalone: true }, "craft created");
  return craftView(def, created);
}
