import { appError, badRequest, type Caller } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import { sendsEmail } from "../domain/automation-engine";
import { allSteps, parseDefinition, type Step, type Trigger } from "../domain/automation-model";
import { AUTOMATION_TEMPLATES, automationTemplate } from "../domain/automation-templates";
import { MISSING_ADDRESS } from "../domain/campaign-rules";
import type { Automation } from "../store/automation.repository";
import type { Run } from "../store/automation-run.repository";
import { releaseHeld } from "./automations-engine";

export type Deps = Pick<NotificationsDeps, "stores" | "automations" | "logger" | "now" | "zones">;

export type AutomationStats = { running: number; completed: number; failed: number };
export type AutomationView = Automation & { stats: AutomationStats };

/** The user and project a call acts in. @throws CR_ERR_BAD_REQUEST for a missing or overlong project id. */
function scope(caller: Caller, projectId: string): { userId: string; projectId: string } {
  if (projectId === "" || projectId.length > 64) throw badRequest({ projectId: "Choose a project" });
  return { userId: caller.userId, projectId };
}

/** 1-based page and a size of 1..100 (default 20). */
function paging(page: number, pageSize: number): { page: number; pageSize: number } {
  return {
    page: page >= 1 ? Math.min(page, 100_000) : 1,
    pageSize: pageSize >= 1 ? Math.min(pageSize, 100) : 20,
  };
}

function definition(
  name: string,
  triggerJson: string,
  stepsJson: string,
): { name: string; trigger: Trigger; steps: Step[] } {
  const trimmed = name.trim();
  if (trimmed === "") throw badRequest({ name: "Give the automation a name" });
  if (trimmed.length > 120) throw badRequest({ name: "A name has at most 120 characters" });
  const parsed = parseDefinition(triggerJson, stepsJson);
  if (!parsed.ok) throw badRequest(parsed.fields);
  return { name: trimmed, trigger: parsed.trigger, steps: parsed.steps };
}

/**
 * Fills each publish_social_post step's post from its craft, read as the caller (the engine runs
 * without the user's session). @throws CR_ERR_BAD_REQUEST (`steps`) when a craft cannot be published.
 */
async function withPosts(deps: Deps, caller: Caller, projectId: string, steps: Step[]): Promise<Step[]> {
  for (const step of allSteps(steps)) {
    if (step.kind !== "publish_social_post") continue;
    const social = deps.automations.social;
    if (!social) throw badRequest({ steps: "Social publishing is not available on this server." });
    step.post = await social.postOfCraft(caller, projectId, step.craftId, step.channelIds);
  }
  return steps;
}

async function withStats(deps: Deps, userId: string, automations: Automation[]): Promise<AutomationView[]> {
  const stats = await deps.stores.automationRuns.stats(
    userId,
    automations.map((a) => a.id),
  );
  return automations.map((a) => ({ ...a, stats: stats.get(a.id) ?? { running: 0, completed: 0, failed: 0 } }));
}

async function owned(deps: Deps, caller: Caller, projectId: string, id: string): Promise<Automation> {
  const s = scope(caller, projectId);
  const found = id.length <= 64 ? await deps.stores.automations.find(s.userId, s.projectId, id) : null;
  if (!found) throw appError("NOT_FOUND", "No such automation.");
  return found;
}

/** The project's automations, newest first, with run stats. */
export async function listAutomations(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; page: number; pageSize: number },
): Promise<{ items: AutomationView[]; total: number; page: number; totalPages: number }> {
  const s = scope(caller, input.projectId);
  const { page, pageSize } = paging(input.page, input.pageSize);
  const found = await deps.stores.automations.list(s.userId, s.projectId, page, pageSize);
  return { ...found, items: await withStats(deps, s.userId, found.items) };
}

/** @throws NOT_FOUND when it is not the caller's. */
export async function getAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string },
): Promise<AutomationView> {
  const found = await owned(deps, caller, input.projectId, input.automationId);
  return (await withStats(deps, caller.userId, [found]))[0]!;
}

/** A draft. @throws CR_ERR_BAD_REQUEST naming the first problem of the name, trigger or steps. */
export async function createAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; name: string; triggerJson: string; stepsJson: string },
): Promise<AutomationView> {
  const s = scope(caller, input.projectId);
  const def = definition(input.name, input.triggerJson, input.stepsJson);
  await withPosts(deps, caller, s.projectId, def.steps);
  const created = await deps.stores.automations.create({
    ...s,
    ...def,
    triggerKind: def.trigger.kind,
    status: "draft",
  });
  return { ...created, stats: { running: 0, completed: 0, failed: 0 } };
}

/** Replaces name, trigger and steps; the status stays. */
export async function updateAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string; name: string; triggerJson: string; stepsJson: string },
): Promise<AutomationView> {
  await owned(deps, caller, input.projectId, input.automationId);
  const def = definition(input.name, input.triggerJson, input.stepsJson);
  await withPosts(deps, caller, input.projectId, def.steps);
  if (def.steps.length === 0) {
    const current = await deps.stores.automations.byId(input.automationId);
    if (current?.status === "active") throw badRequest({ steps: "An active automation needs at least one step" });
  }
  const updated = await deps.stores.automations.update(caller.userId, input.projectId, input.automationId, {
    ...def,
    triggerKind: def.trigger.kind,
  });
  if (!updated) throw appError("NOT_FOUND", "No such automation.");
  return (await withStats(deps, caller.userId, [updated]))[0]!;
}

/** Deletes it; its runs end at their next step. */
export async function deleteAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string },
): Promise<void> {
  await owned(deps, caller, input.projectId, input.automationId);
  await deps.stores.automations.delete(caller.userId, input.projectId, input.automationId);
}

/**
 * Activates (or resumes) it and re-queues the steps a pause held.
 * @throws CR_ERR_BAD_REQUEST without steps (`steps`), or with a send_email step while the business
 * profile has no postal address (`businessAddress`).
 */
export async function activateAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string },
): Promise<AutomationView> {
  const found = await owned(deps, caller, input.projectId, input.automationId);
  if (found.steps.length === 0) throw badRequest({ steps: "Add at least one step before activating" });
  // CAN-SPAM, as for campaigns: its emails would carry no postal address.
  if (sendsEmail(found.steps)) {
    const address = await deps.automations.mailer.senderAddress(caller.userId, found.projectId, caller.token);
    if (!address.trim()) throw badRequest({ businessAddress: MISSING_ADDRESS });
  }
  const updated = await deps.stores.automations.update(caller.userId, input.projectId, found.id, { status: "active" });
  if (!updated) throw appError("NOT_FOUND", "No such automation.");
  const released = await releaseHeld(deps, found.id);
  if (released > 0) deps.logger.info({ automationId: found.id, released }, "automation resumed");
  return (await withStats(deps, caller.userId, [updated]))[0]!;
}

/** Pauses it: no new runs; running ones hold at their next step. */
export async function pauseAutomation(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string },
): Promise<AutomationView> {
  const found = await owned(deps, caller, input.projectId, input.automationId);
  const updated = await deps.stores.automations.update(caller.userId, input.projectId, found.id, { status: "paused" });
  if (!updated) throw appError("NOT_FOUND", "No such automation.");
  return (await withStats(deps, caller.userId, [updated]))[0]!;
}

export function listAutomationTemplates() {
  return AUTOMATION_TEMPLATES;
}

/** A draft copied from a template. @throws NOT_FOUND for an unknown template. */
export async function createFromTemplate(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; templateId: string },
): Promise<AutomationView> {
  const template = automationTemplate(input.templateId);
  if (!template) throw appError("NOT_FOUND", "No such automation template.");
  return createAutomation(deps, caller, {
    projectId: input.projectId,
    name: template.name,
    triggerJson: JSON.stringify(template.trigger),
    stepsJson: JSON.stringify(template.steps),
  });
}

/** Run history of one automation or one contact, newest first. */
export async function listRuns(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; automationId: string; contactId: string; page: number; pageSize: number },
): Promise<{ items: Run[]; total: number; page: number; totalPages: number }> {
  const s = scope(caller, input.projectId);
  const { page, pageSize } = paging(input.page, input.pageSize);
  let filter: Parameters<Deps["stores"]["automationRuns"]["list"]>[0];
  if (input.automationId) {
    await owned(deps, caller, input.projectId, input.automationId);
    filter = { ...s, automationId: input.automationId };
  } else if (input.contactId && input.contactId.length <= 64) {
    filter = { ...s, contactId: input.contactId };
  } else {
    throw badRequest({ automationId: "Name an automation or a contact" });
  }
  const found = await deps.stores.automationRuns.list(filter, page, pageSize);
  return { ...found, page, totalPages: Math.max(1, Math.ceil(found.total / pageSize)) };
}
