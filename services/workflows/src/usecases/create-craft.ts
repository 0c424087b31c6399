import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller, metrics } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { startCraft } from "../domain/craft";
import type { CraftRecord } from "../domain/types";
import { type CraftView, craftView } from "../domain/view";
import { indexFields } from "../store/craft.repository";
import { requireField } from "./common";

export interface CreateCraftInput {
  workflowName: string;
  craftName: string;
  projectId: string;
  profileId: string;
  /** Answer the craft as it would start, without storing it (craftId ""). */
  preview?: boolean;
}

export const MAX_CRAFT_NAME = 120;

/** The workflow's latest definition. @throws NOT_FOUND (unknown), CR_ERR_BAD_REQUEST (no definition yet). */
export function latestDefinition(deps: WorkflowsDeps, name: string) {
  const workflowName = requireField(name, "workflowName", "Workflow");
  if (!deps.registry.isListed(workflowName)) throw appError("NOT_FOUND", `Workflow ${workflowName} not found.`);
  const def = deps.registry.latest(workflowName);
  if (!def) {
    throw appError("CR_ERR_BAD_REQUEST", `${workflowName} is not available yet.`, {
      workflowName: `${workflowName} is not available yet.`,
    });
  }
  return def;
}

/** The user's name for a new craft, or "" to let its content name it. @throws CR_ERR_BAD_REQUEST past 120 characters. */
export function givenName(craftName: string): string {
  const name = craftName.trim();
  if (name.length > MAX_CRAFT_NAME) throw badRequest({ craftName: `Name must be 1 to ${MAX_CRAFT_NAME} characters.` });
  return name;
}

/**
 * The fields of a new craft shared by CreateCraft and CreateStandaloneCraft: named by the user, or
 * "Untitled <workflow>" until its content names it.
 */
export function newCraftFields(
  def: { title: string },
  name: string,
  progress: CraftRecord["steps"],
): { craftName: string; nameFromUser: boolean; contentName: string; searchTokens: string[] } {
  const craftName = name || `Untitled ${def.title}`;
  const nameFromUser = name !== "";
  return { craftName, nameFromUser, ...indexFields({ craftName, nameFromUser }, progress) };
}

/**
 * Starts a craft of the workflow's default version for the user, in the given project (or the
 * active one), prefilled from its profile; publishes CraftCreated. With `preview`, answers the same
 * craft with id "" and stores nothing: the web shows it until the user first saves or completes a
 * step, so opening a workflow leaves nothing behind.
 * @throws NOT_FOUND for an unknown workflow, CR_ERR_BAD_REQUEST for one without a definition yet.
 */
export async function createCraft(deps: WorkflowsDeps, caller: Caller, input: CreateCraftInput): Promise<CraftView> {
  const { userId } = caller;
  const def = latestDefinition(deps, input.workflowName);
  const name = givenName(input.craftName);

  const { projectId, profile } = await deps.clients.profiles.resolve(caller, {
    projectId: input.projectId.trim(),
    profileId: input.profileId.trim(),
  });
  const now = deps.now();
  const progress = startCraft(def, profile, now);
  const id = input.preview ? "" : randomUUID();
  const fields = {
    userId,
    projectId,
    profileId: profile?.profileId ?? "",
    workflowName: def.name,
    workflowVersion: def.version,
    ...newCraftFields(def, name, progress.steps),
    ...progress,
    profile,
  };
  if (input.preview) {
    const record: CraftRecord = {
      ...fields,
      id,
      usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
      createdAt: now,
      updatedAt: now,
    };
    return craftView(def, record);
  }
  const created = await deps.stores.crafts.create({
    _id: id,
    ...fields,
    outbox: [
      deps.events.created({ id, userId, projectId, workflowName: def.name, profileId: profile?.profileId ?? "" }),
    ],
  });
  deps.kick();
  deps.logger.info({ craftId: id, workflow: def.name, version: def.version }, "craft created");
  metrics.craftsStarted.add(1, { workflow: def.name });
  return craftView(def, created);
}
