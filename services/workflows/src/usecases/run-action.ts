import type { JsonObject } from "@bufbuild/protobuf";
import { badRequest, type Caller, type OutboxEntry } from "@crafter/kit";
import { isTextAction } from "@crafter/workflow-language";
import type { WorkflowsDeps } from "../deps";
import { addResults, assertCanRun, runsOf } from "../domain/craft";
import { checkInputs } from "../domain/inputs";
import { compact, craftView, resultView } from "../domain/view";
import { charge, creditsFor, runStepAction, type StepEvent, streamOf, warningsMeta } from "./action-runner";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

export interface RunActionInput {
  craftId: string;
  stepName: string;
  /** Must be the step's action kind, e.g. "TextGenerator" (else CR_ERR_BAD_REQUEST). */
  actionType: string;
  /** The values to run with, merged over the step's saved values (like CompleteStep's values). */
  params?: JsonObject;
  /** As CompleteStepInput.buffered. */
  buffered?: boolean;
}

/**
 * Runs a step's action without completing the step ("generate more"), streaming like
 * CompleteStep: `started`, `delta`…, `completed {result, meta, craft}`. The values are checked as
 * for completing (Must → CR_ERR_BAD_REQUEST) and saved with the new results (AppendResults adds,
 * ReplaceResults replaces; past maxResults → ReachedMaxResults). The step keeps its state (an open
 * step becomes InProgress), so the craft does not move on. Credits, lock and cancellation as
 * CompleteStep: a cancelled or failed run saves nothing and refunds.
 */
export function runAction(deps: WorkflowsDeps, caller: Caller, input: RunActionInput): AsyncIterable<StepEvent> {
  const { userId, signal } = caller;
  return streamOf((emit) => run(deps, userId, input, signal, emit, caller));
}

async function run(
  deps: WorkflowsDeps,
  userId: string,
  input: RunActionInput,
  signal: AbortSignal,
  emit: (event: StepEvent) => void,
  caller: Caller,
): Promise<void> {
  const stepName = requireField(input.stepName, "stepName", "Step");
  const actionType = requireField(input.actionType, "actionType", "Action type");
  await withActionLock(deps, input.craftId, async () => {
    const stored = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, stored);
    const step = applyRule(() => assertCanRun(def, stored, stepName, actionType));
    const record = stored.steps.find((candidate) => candidate.name === stepName)!;
    const check = checkInputs(step, { ...record.values, ...(input.params ?? {}) }, "complete", {
      profile: stored.profile,
      steps: stored.steps,
    });
    if (Object.keys(check.errors).length > 0) throw badRequest(check.errors);
    // Read before any charge: without it no draft is written (its words to avoid are a promise).
    const voice = isTextAction(step.action) ? await deps.clients.brandVoice.get(caller, stored.projectId) : null;

    const credits = await charge(deps, {
      userId,
      craftId: stored.id,
      amount: creditsFor(step, runsOf(step, record)),
      reason: `${def.name}/${stepName}`,
      textOf: isTextAction(step.action) ? def.name : undefined,
    });
    try {
      const started = Date.now();
      const outcome = await runStepAction(deps, {
        userId,
        caller,
        voice,
        craft: stored,
        def,
        step,
        values: check.values,
        raw: input.params,
        signal,
        buffered: input.buffered,
        emit,
      });
      const progress = addResults(def, stored, stepName, check.values, outcome.results);
      const events: OutboxEntry[] = outcome.results
        .filter((result) => !result.engine.startsWith("function:"))
        .map((result) => deps.events.generationUsed(stored, stepName, result.engine, result.usage));
      const saved =
        (await deps.stores.crafts.saveProgress(userId, stored, stored.rev, {
          progress,
          events,
          usage: outcome.results.length > 0 ? outcome.usage : undefined,
        })) ?? conflict();
      if (events.length > 0) deps.kick();
      const last = outcome.results[outcome.results.length - 1];
      const meta = compact({
        engine: last?.engine,
        framework: last?.framework,
        note: last?.note,
        usage: { inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens },
        credits: credits.amount,
        results: outcome.results.length > 1 ? outcome.results.length : undefined,
        durationMs: Date.now() - started,
        warnings: warningsMeta(check.warnings),
        craftState: saved.state,
        nextStep: saved.currentStep,
      });
      emit({ case: "completed", value: { result: last ? resultView(last) : {}, meta, craft: craftView(def, saved) } });
    } catch (error) {
      await credits.refund();
      throw error;
    }
  });
}
