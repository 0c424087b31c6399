import { appError, badRequest } from "@crafter/kit";
import { type CraftView, craftView } from "../domain/view";
import { definitionOf, requireField } from "./common";
import { MAX_CRAFT_NAME } from "./create-craft";
import type { WorkflowsDeps } from "./deps";

export async function renameCraft(
  deps: WorkflowsDeps,
  userId: string,
  input: { craftId: string; name: string },
): Promise<CraftView> {
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  const name = input.name.trim();
  if (name.length < 1 || name.length > MAX_CRAFT_NAME) {
    throw badRequest({ name: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  }
  const craft = await deps.crafts.rename(userId, craftId, name);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  return craftView(definitionOf(deps, craft), craft);
}
