import type { JsonObject } from "@bufbuild/protobuf";
import { badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { findStep, saveStepValues } from "../domain/craft";
import { checkInputs } from "../domain/inputs";
import { type CraftView, craftView } from "../domain/view";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

/**
 * Stores values of an open step without completing it (only their shape and size are checked).
 * @throws TooManyRunningActions while an action of the craft runs.
 */
export async function saveCraft(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; stepName: string; values?: JsonObject },
): Promise<CraftView> {
  const { userId } = caller;
  const stepName = requireField(input.stepName, "stepName", "Step");
  return withActionLock(deps, input.craftId, async () => {
    const craft = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, craft);
    const { step } = applyRule(() => findStep(def, stepName));
    const check = checkInputs(step, input.values ?? {}, "save");
    if (Object.keys(check.errors).length > 0) throw badRequest(check.errors);
    const progress = applyRule(() => saveStepValues(def, craft, stepName, check.values));
    const saved = (await deps.stores.crafts.saveProgress(userId, craft, craft.rev, { progress })) ?? conflict();
    return craftView(def, saved);
  });
}
