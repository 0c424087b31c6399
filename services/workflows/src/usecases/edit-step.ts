import type { Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { editStep as reopen } from "../domain/craft";
import { type CraftView, craftView } from "../domain/view";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

/**
 * Reopens a completed step; later steps go back to NotStarted, keeping their values.
 * @throws TooManyRunningActions while an action of the craft runs.
 */
export async function editStep(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; stepName: string },
): Promise<CraftView> {
  const { userId } = caller;
  const stepName = requireField(input.stepName, "stepName", "Step");
  return withActionLock(deps, input.craftId, async () => {
    const craft = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, craft);
    const progress = applyRule(() => reopen(def, craft, stepName));
    const saved =
      (await deps.stores.crafts.saveProgress(userId, craft, craft.rev, {
        progress,
        completedAt: progress.state === "Completed" ? undefined : null,
      })) ?? conflict();
    return craftView(def, saved);
  });
}
