import { randomUUID } from "node:crypto";
import type { JsonObject } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { appError, badRequest, type OutboxEntry } from "@crafter/kit";
import { assertCanComplete, completeStep as complete, markInProgress } from "../domain/craft";
import type { TextActionDefinition } from "../domain/definition";
import { checkInputs } from "../domain/inputs";
import { MalformedOutputError, shapeOutput } from "../domain/output";
import { buildGeneration } from "../domain/prompt";
import type { ResultRecord } from "../domain/types";
import { type CraftView, compact, craftView, resultView } from "../domain/view";
import type { EngineInfo } from "../generation/text-engine";
import type { StoredCraft } from "../store/craft.repository";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";
import type { WorkflowsDeps } from "./deps";

export type StepEvent =
  | { case: "started"; value: EngineInfo }
  | { case: "delta"; value: { text: string } }
  | { case: "completed"; value: { result: JsonObject; meta: JsonObject; craft: CraftView } };

export interface CompleteStepInput {
  craftId: string;
  stepName: string;
  values?: JsonObject;
}

/**
 * Completes a step, streaming what its action writes:
 * `started {engine, framework}`, then `delta {text}` chunks, then `completed {result, meta, craft}`.
 *
 * The inputs are checked first (Must rules → CR_ERR_BAD_REQUEST with a message per field). One
 * action runs per craft (TooManyRunningActions). While it runs the step is InProgress; when
 * `signal` aborts (the client went away, or the server drains) or generation fails, nothing is
 * saved and the step returns to its previous state.
 *
 * The work runs apart from the consumer of the stream, so it always finishes (and releases the
 * lock) whether or not the transport keeps reading.
 */
export function completeStep(
  deps: WorkflowsDeps,
  userId: string,
  input: CompleteStepInput,
  signal: AbortSignal,
): AsyncIterable<StepEvent> {
  const queue = new EventQueue<StepEvent>();
  run(deps, userId, input, signal, (event) => queue.push(event)).then(
    () => queue.close(),
    (error) => queue.fail(error),
  );
  return queue;
}

async function run(
  deps: WorkflowsDeps,
  userId: string,
  input: CompleteStepInput,
  signal: AbortSignal,
  emit: (event: StepEvent) => void,
): Promise<void> {
  const stepName = requireField(input.stepName, "stepName", "Step");
  await withActionLock(deps, input.craftId, async () => {
    const stored = await loadCraft(deps, userId, input.craftId);
    const def = definitionOf(deps, stored);
    const step = applyRule(() => assertCanComplete(def, stored, stepName));
    const record = stored.steps.find((candidate) => candidate.name === stepName)!;
    const check = checkInputs(step, { ...record.values, ...(input.values ?? {}) }, "complete");
    if (Object.keys(check.errors).length > 0) throw badRequest(check.errors);

    // The step is InProgress while its action runs.
    const marked = markInProgress(def, stored, stepName);
    let current: StoredCraft = stored;
    if (marked.state !== stored.state || record.state !== "InProgress" || marked.currentStep !== stored.currentStep) {
      current = (await deps.crafts.saveProgress(userId, stored.id, stored.rev, { progress: marked })) ?? conflict();
    }
    const restore = async () => {
      if (current === stored) return;
      const restored = await deps.crafts.saveProgress(userId, stored.id, current.rev, { progress: stored });
      if (!restored) deps.logger.warn({ craftId: stored.id, stepName }, "could not restore the step's state");
    };

    const started = Date.now();
    let result: ResultRecord | null = null;
    let info: EngineInfo | undefined;
    try {
      if (step.action) {
        const request = buildGeneration(def, step, check.values, current.steps, current.profile);
        info = deps.engine.describe(request);
        emit({ case: "started", value: info });
        const generation = deps.engine.stream(request, signal);
        let text = "";
        for await (const chunk of generation) {
          text += chunk;
          emit({ case: "delta", value: { text: chunk } });
        }
        signal.throwIfAborted();
        const shaped = shapeOutput((step.action as TextActionDefinition).output, text);
        result = {
          id: randomUUID(),
          ...shaped,
          engine: info.engine,
          ...(info.framework ? { framework: info.framework } : {}),
          ...(info.note ? { note: info.note } : {}),
          usage: { ...generation.usage },
          createdAt: deps.now(),
        };
      }
      signal.throwIfAborted();
    } catch (error) {
      await restore();
      if (signal.aborted) {
        deps.logger.info({ craftId: stored.id, stepName }, "step cancelled; nothing saved");
        throw new ConnectError("The request was cancelled.", Code.Canceled);
      }
      if (error instanceof MalformedOutputError) {
        deps.logger.error(
          { craftId: stored.id, stepName, engine: info?.engine, reason: error.message },
          "malformed output",
        );
        throw appError("InternalServerError");
      }
      throw error;
    }

    const now = deps.now();
    const completion = complete(def, current, stepName, check.values, result, current.profile, now);
    const events: OutboxEntry[] = [];
    if (result) events.push(deps.events.generationUsed(current, stepName, result.engine, result.usage));
    if (completion.craftCompleted) events.push(deps.events.completed(current));
    const saved =
      (await deps.crafts.saveProgress(userId, stored.id, current.rev, {
        progress: completion.progress,
        events,
        usage: result?.usage,
        completedAt: completion.progress.state === "Completed" ? (completion.craftCompleted ? now : undefined) : null,
      })) ?? conflict();
    if (events.length > 0) deps.kick();

    const meta = compact({
      engine: result?.engine,
      framework: result?.framework,
      note: result?.note,
      usage: result ? { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } : undefined,
      durationMs: Date.now() - started,
      warnings: Object.keys(check.warnings).length > 0 ? check.warnings : undefined,
      craftState: saved.state,
      nextStep: saved.currentStep,
    });
    emit({
      case: "completed",
      value: { result: result ? resultView(result) : {}, meta, craft: craftView(def, saved) },
    });
  });
}

/** A single-consumer queue the work pushes into and the stream reads from. */
class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private done = false;
  private failed = false;
  private error: unknown;

  push(item: T): void {
    this.items.push(item);
    this.notify();
  }

  close(): void {
    this.done = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failed = true;
    this.error = error;
    this.close();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.done) {
        if (this.failed) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
