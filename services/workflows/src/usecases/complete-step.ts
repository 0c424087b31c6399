import type { JsonObject } from "@bufbuild/protobuf";
import { badRequest, type Caller, type OutboxEntry } from "@crafter/kit";
import { isTextAction } from "@crafter/workflow-language";
import type { WorkflowsDeps } from "../deps";
import { assertCanComplete, completeStep as complete, markInProgress, runsOf } from "../domain/craft";
import { checkInputs } from "../domain/inputs";
import { compact, craftView, resultView } from "../domain/view";
import type { StoredCraft } from "../store/craft.repository";
import { charge, creditsFor, runStepAction, type StepEvent, streamOf, warningsMeta } from "./action-runner";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

export type { StepEvent } from "./action-runner";

export interface CompleteStepInput {
  craftId: string;
  stepName: string;
  values?: JsonObject;
  /** The caller reads the result whole: no `delta` events, no pacing (action-runner's ActionRun). */
  buffered?: boolean;
}

/**
 * Completes a step, streaming what its action writes:
 * `started {engine, framework, itemIndex?}`, then `delta {text}` chunks (per item of an
 * IteratorStep), then `completed {result, meta, craft}`.
 *
 * The inputs are checked first (Must rules → CR_ERR_BAD_REQUEST with a message per field; Should
 * rules → `meta.warnings`; hidden inputs are dropped). One action runs per craft
 * (TooManyRunningActions). The action's credits are debited before it runs and refunded when it
 * fails or is cancelled. While it runs the step is InProgress; when `signal` aborts (the client
 * went away, or the server drains) or the action fails, nothing is saved and the step returns to
 * its previous state. An InlineTextGenerator step completes with its values only.
 */
export function completeStep(deps: WorkflowsDeps, caller: Caller, input: CompleteStepInput): AsyncIterable<StepEvent> {
  const { userId, signal } = caller;
  return streamOf((emit) => run(deps, userId, input, signal, emit, caller));
}

async function run(
  deps: WorkflowsDeps,
  userId: string,
  input: CompleteStepInput,
  signal: AbortSignal,
  emit: (event: StepEvent) => void,
  caller: Caller,
): Promise<void> {
  const stepName = requireField(input.stepName, "stepName", "Step");
  await withActionLock(deps, input.craftId, async () => {
    const stored = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, stored);
    const step = applyRule(() => assertCanComplete(def, stored, stepName));
    const record = stored.steps.find((candidate) => candidate.name === stepName)!;
    const check = checkInputs(step, { ...record.values, ...(input.values ?? {}) }, "complete", {
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
      // The step is InProgress while its action runs.
      const marked = markInProgress(def, stored, stepName);
      let current: StoredCraft = stored;
      if (marked.state !== stored.state || record.state !== "InProgress" || marked.currentStep !== stored.currentStep) {
        current =
          (await deps.stores.crafts.saveProgress(userId, stored, stored.rev, { progress: marked })) ?? conflict();
      }
      const started = Date.now();
      let outcome: Awaited<ReturnType<typeof runStepAction>>;
      try {
        outcome = await runStepAction(deps, {
          userId,
          caller,
          voice,
          craft: current,
          def,
          step,
          values: check.values,
          raw: input.values,
          signal,
          buffered: input.buffered,
          emit,
        });
      } catch (error) {
        if (current !== stored) {
          const restored = await deps.stores.crafts.saveProgress(userId, stored, current.rev, { progress: stored });
          if (!restored) deps.logger.warn({ craftId: stored.id, stepName }, "could not restore the step's state");
        }
        throw error;
      }

      const now = deps.now();
      const completion = complete(def, current, stepName, check.values, outcome.results, current.profile, now);
      const events: OutboxEntry[] = outcome.results
        .filter((result) => !result.engine.startsWith("function:"))
        .map((result) => deps.events.generationUsed(current, stepName, result.engine, result.usage));
      if (completion.craftCompleted) events.push(deps.events.completed(current));
      const saved =
        (await deps.stores.crafts.saveProgress(userId, stored, current.rev, {
          progress: completion.progress,
          events,
          usage: outcome.results.length > 0 ? outcome.usage : undefined,
          completedAt: completion.progress.state === "Completed" ? (completion.craftCompleted ? now : undefined) : null,
        })) ?? conflict();
      if (events.length > 0) deps.kick();

      const last = outcome.results[outcome.results.length - 1];
      const meta = compact({
        engine: last?.engine,
        framework: last?.framework,
        note: last?.note,
        usage: last ? { inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens } : undefined,
        credits: credits.amount,
        results: outcome.results.length > 1 ? outcome.results.length : undefined,
        durationMs: Date.now() - started,
        warnings: warningsMeta(check.warnings),
        craftState: saved.state,
        nextStep: saved.currentStep,
      });
      emit({
        case: "completed",
        value: { result: last ? resultView(last) : {}, meta, craft: craftView(def, saved) },
      });
    } catch (error) {
      await credits.refund();
      throw error;
    }
  });
}
