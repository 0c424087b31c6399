import { appError, badRequest, type Caller } from "@crafter/kit";
import type { WorkflowDefinition } from "@crafter/workflow-language";
import type { WorkflowsDeps } from "../deps";
import type { BrandVoice } from "../domain/brand-voice";
import { CraftRuleError } from "../domain/craft";
import type { StoredCraft } from "../store/craft.repository";

export function requireField(value: string, field: string, label: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest({ [field]: `${label} is required` });
  return trimmed;
}

/**
 * The caller's craft. A team member's delegated token reaches only the crafts of its project.
 * @throws NOT_FOUND when it does not exist, is another user's, or is outside the delegated project.
 */
export async function loadCraft(
  deps: WorkflowsDeps,
  caller: Pick<Caller, "userId" | "delegatedProjectId">,
  craftId: string,
): Promise<StoredCraft> {
  const id = requireField(craftId, "craftId", "Craft id");
  const craft = await deps.stores.crafts.findById(caller.userId, id);
  if (!craft || (caller.delegatedProjectId !== undefined && craft.projectId !== caller.delegatedProjectId)) {
    throw appError("NOT_FOUND", "Craft not found.");
  }
  return craft;
}

/** The definition version a craft was created with. */
export function definitionOf(deps: WorkflowsDeps, craft: StoredCraft): WorkflowDefinition {
  const def = deps.registry.get(craft.workflowName, craft.workflowVersion);
  if (!def) {
    deps.logger.error(
      { craftId: craft.id, workflow: craft.workflowName, version: craft.workflowVersion },
      "definition missing",
    );
    throw appError("InternalServerError");
  }
  return def;
}

/** Runs a state-machine step, answering a broken rule with its spec code. */
export function applyRule<T>(rule: () => T): T {
  try {
    return rule();
  } catch (error) {
    if (error instanceof CraftRuleError) throw appError(error.code, error.message || undefined);
    throw error;
  }
}

/** Runs `work` holding the craft's action lock. @throws TooManyRunningActions when it is held. */
export async function withActionLock<T>(deps: WorkflowsDeps, craftId: string, work: () => Promise<T>): Promise<T> {
  const lock = await deps.locks.acquire(requireField(craftId, "craftId", "Craft id"));
  if (!lock) throw appError("TooManyRunningActions");
  try {
    return await work();
  } finally {
    await lock.release().catch((error) => deps.logger.warn({ err: error, craftId }, "action lock release failed"));
  }
}

export function conflict(): never {
  throw appError("CONFLICT");
}

/**
 * The brand voice of the caller's active project (null when they have none), for generations
 * outside a craft (the assistant, image prompts of a document): they write for the project the
 * user works in. Applied with `withBrandVoice`, as every craft generation is.
 * @throws the projects service's outage (UNAVAILABLE).
 */
export async function activeProjectVoice(deps: WorkflowsDeps, caller: Caller): Promise<BrandVoice | null> {
  const { projectId } = await deps.clients.profiles.resolve(caller, { projectId: "", profileId: "" });
  return deps.clients.brandVoice.get(caller, projectId);
}
