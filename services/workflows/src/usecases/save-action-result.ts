import { randomUUID } from "node:crypto";
import type { Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { changeResults, type ResultChange } from "../domain/results";
import { type CraftView, craftView } from "../domain/view";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

/**
 * Edits, selects or deletes a result of a step, or adds a user-written one (domain/results.ts);
 * HTML is sanitised like generated HTML.
 * @throws NOT_FOUND (craft or result), CR_ERR_BAD_REQUEST, CONFLICT, ReachedMaxResults,
 * TooManyRunningActions while an action of the craft runs.
 */
export async function saveActionResult(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; stepName: string } & ResultChange,
): Promise<CraftView> {
  const { userId } = caller;
  const stepName = requireField(input.stepName, "stepName", "Step");
  return withActionLock(deps, input.craftId, async () => {
    const craft = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, craft);
    const progress = applyRule(() => changeResults(def, craft, stepName, input, randomUUID, deps.now()));
    const saved = (await deps.stores.crafts.saveProgress(userId, craft, craft.rev, { progress })) ?? conflict();
    return craftView(def, saved);
  });
}
