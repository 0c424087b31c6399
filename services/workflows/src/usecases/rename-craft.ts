import { appError, badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type CraftView, craftView } from "../domain/view";
import { definitionOf, loadCraft, requireField } from "./common";
import { MAX_CRAFT_NAME } from "./create-craft";

export async function renameCraft(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; name: string },
): Promise<CraftView> {
  const { userId } = caller;
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  const name = input.name.trim();
  if (name.length < 1 || name.length > MAX_CRAFT_NAME) {
    throw badRequest({ name: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  }
  if (caller.delegatedProjectId !== undefined) await loadCraft(deps, caller, craftId);
  const craft = await deps.stores.crafts.rename(userId, craftId, name);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  return craftView(definitionOf(deps, craft), craft);
}
