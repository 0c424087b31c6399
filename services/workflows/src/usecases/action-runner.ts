import { createHash, randomUUID } from "node:crypto";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { appError, type Caller, CancelledError, metrics } from "@crafter/kit";
import {
  type ActionDefinition,
  isMediaActionKind,
  isTextAction,
  type StepDefinition,
  type WorkflowDefinition,
} from "@crafter/workflow-language";
import type { WorkflowsDeps } from "../deps";
import { type BrandVoice, withBrandVoice } from "../domain/brand-voice";
import { chosenId, designResultData, imageRequest, scriptSegments, speechScript } from "../domain/media-step";
import { MalformedOutputError, shapeData, shapeOutput } from "../domain/output";
import { buildGeneration, type GenerationRequest, renderTemplate } from "../domain/prompt";
import type { ResultRecord, StepRecord, TokenUsage, Values } from "../domain/types";
import type { CraftView } from "../domain/view";
import { malformedOutputError } from "../generation/errors";
import type { EngineInfo } from "../generation/text-engine";
import type { StoredCraft } from "../store/craft.repository";

/** What a streaming run (CompleteStep, RunAction) sends: `started` once per run (per item). */
export type StepEvent =
  | { case: "started"; value: EngineInfo & { itemIndex?: number } }
  | { case: "delta"; value: { text: string } }
  | { case: "completed"; value: { result: JsonObject; meta: JsonObject; craft: CraftView } };

export interface ActionRun {
  userId: string;
  /** The user's token and signal: the media kinds call the media service on the user's behalf. */
  caller?: Pick<Caller, "token" | "signal">;
  /** The project's brand voice (null: none, or a craft without a project). */
  voice?: BrandVoice | null;
  craft: StoredCraft;
  def: WorkflowDefinition;
  step: StepDefinition;
  /** The validated values the action runs with. */
  values: Values;
  /**
   * What the browser sent beyond the step's inputs: `{ assetId }` or `{ stockId }` (an ImageAppender
   * keeps an image the user picked instead of generating one), `{ designId }` (a VisualDesigner's saved design).
   */
  raw?: Readonly<Record<string, unknown>>;
  signal: AbortSignal;
  /**
   * The caller reads the result whole (the gateway's REST route): no `delta` events, and the
   * offline engine writes at once instead of pacing its text for a reader.
   */
  buffered?: boolean;
  emit: (event: StepEvent) => void;
}

/** What an action run wrote: one result per run (per item of an IteratorStep). */
export interface ActionOutcome {
  results: ResultRecord[];
  usage: TokenUsage;
}

/**
 * Runs a step's action: a text action (TextGenerator, promptWriterAction) through the engine,
 * streaming `started`/`delta`; a FunctionCaller through the function registry. An IteratorStep
 * runs it once per item, each result carrying `item` and `itemIndex`. Other kinds write nothing.
 * @throws CancelledError when `signal` aborts; InternalServerError for malformed output or
 *   a function that is not registered; the function's or engine's own spec errors.
 */
export async function runStepAction(deps: WorkflowsDeps, run: ActionRun): Promise<ActionOutcome> {
  const action = run.step.action;
  const record = run.craft.steps.find((candidate) => candidate.name === run.step.name)!;
  const outcome: ActionOutcome = { results: [], usage: { inputTokens: 0, outputTokens: 0 } };
  if (action && (isMediaActionKind(action.kind) || action.kind === "VisualDesigner")) {
    try {
      outcome.results.push(
        action.kind === "VisualDesigner" ? await keepDesign(deps, run) : await makeMedia(deps, run, action.kind),
      );
    } catch (error) {
      if (run.signal.aborted) throw new CancelledError();
      throw error;
    }
    return outcome;
  }
  if (!action || !(isTextAction(action) || action.kind === "FunctionCaller")) return outcome;
  const runs: { item?: JsonValue; itemIndex?: number }[] =
    run.step.kind === "IteratorStep" ? (record.items ?? []).map((item, itemIndex) => ({ item, itemIndex })) : [{}];
  try {
    for (const extras of runs) {
      run.signal.throwIfAborted();
      const result =
        action.kind === "FunctionCaller"
          ? await callFunction(deps, run, action, run.craft.steps, extras)
          : await generate(
              deps,
              run,
              withBrandVoice(
                buildGeneration(run.def, run.step, run.values, run.craft.steps, run.craft.profile, extras),
                run.voice,
              ),
            );
      if (extras.itemIndex !== undefined) {
        result.item = extras.item!;
        result.itemIndex = extras.itemIndex;
      }
      outcome.results.push(result);
      outcome.usage.inputTokens += result.usage.inputTokens;
      outcome.usage.outputTokens += result.usage.outputTokens;
    }
    run.signal.throwIfAborted();
  } catch (error) {
    if (run.signal.aborted) {
      deps.logger.info({ craftId: run.craft.id, stepName: run.step.name }, "action cancelled; nothing saved");
      throw new CancelledError();
    }
    if (error instanceof MalformedOutputError) {
      deps.logger.error({ craftId: run.craft.id, stepName: run.step.name, reason: error.message }, "malformed output");
      throw appError("InternalServerError");
    }
    throw error;
  }
  return outcome;
}

async function generate(
  deps: WorkflowsDeps,
  run: ActionRun,
  request: GenerationRequest,
  itemIndex = request.context.itemIndex,
): Promise<ResultRecord> {
  const engine = await deps.engines.forUser(run.userId);
  const info = engine.describe(request);
  run.emit({ case: "started", value: { ...info, ...(itemIndex !== undefined ? { itemIndex } : {}) } });
  const attributes = { workflow: run.def.name, engine: info.engine };
  const started = performance.now();
  const generation = engine.stream(request, run.signal, { paced: !run.buffered });
  let text = "";
  try {
    for await (const chunk of generation) {
      text += chunk;
      if (!run.buffered) run.emit({ case: "delta", value: { text: chunk } });
    }
    run.signal.throwIfAborted();
  } catch (error) {
    metrics.generations.add(1, { ...attributes, outcome: run.signal.aborted ? "cancelled" : "error" });
    throw error;
  }
  metrics.generations.add(1, { ...attributes, outcome: "ok" });
  metrics.generationDuration.record((performance.now() - started) / 1000, attributes);
  let shaped: ReturnType<typeof shapeOutput>;
  try {
    shaped = shapeOutput(request.output, text);
  } catch (error) {
    if (!(error instanceof MalformedOutputError)) throw error;
    deps.logger.error({ craftId: run.craft.id, engine: info.engine, reason: error.message }, "malformed output");
    // A model's unusable text is about the inputs (ConflictingInputError); the offline engine's is our bug.
    throw malformedOutputError(info.engine);
  }
  return {
    id: randomUUID(),
    ...shaped,
    engine: info.engine,
    ...(info.framework ? { framework: info.framework } : {}),
    ...(info.note ? { note: info.note } : {}),
    usage: { ...generation.usage },
    createdAt: deps.now(),
  };
}

async function callFunction(
  deps: WorkflowsDeps,
  run: ActionRun,
  action: Extract<ActionDefinition, { kind: "FunctionCaller" }>,
  steps: StepRecord[],
  extras: { item?: JsonValue; itemIndex?: number },
): Promise<ResultRecord> {
  const fn = deps.functions[action.function];
  if (!fn) {
    deps.logger.error({ function: action.function }, "function not registered");
    throw appError("InternalServerError");
  }
  const scope = { profile: run.craft.profile, steps, values: run.values, ...extras };
  // Each arg is one template; a blank reference gives "" (the function says what it needs).
  const args = Object.fromEntries(
    Object.entries(action.args).map(([name, template]) => [name, renderTemplate(template, run.def, run.step, scope)]),
  );
  const engine = `function:${action.function}`;
  run.emit({
    case: "started",
    value: { engine, framework: "", ...(extras.itemIndex !== undefined ? { itemIndex: extras.itemIndex } : {}) },
  });
  const answer = await fn(args, { userId: run.userId, craftId: run.craft.id, signal: run.signal });
  run.signal.throwIfAborted();
  return {
    id: randomUUID(),
    ...shapeData(action.output, answer),
    engine,
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: deps.now(),
  };
}

/**
 * An ImageAppender or AudioGenerator run: the media service makes the asset (it debits the image or
 * the spoken minutes before the work and refunds them when it fails) and the result keeps it as
 * `data.asset`. The script's speech is keyed by craft, step and text: a retry after a failed save
 * returns the same asset without a second debit.
 * @throws CR_ERR_BAD_REQUEST (no script to speak), the media service's NOT_ENOUGH_CREDITS, plan
 *   limits and MEDIA_PROVIDER_FAILED.
 */
async function makeMedia(
  deps: WorkflowsDeps,
  run: ActionRun,
  kind: "ImageAppender" | "AudioGenerator",
): Promise<ResultRecord> {
  const { craft, def, step } = run;
  const engine = kind === "AudioGenerator" ? "media:speech" : "media:image";
  if (kind === "AudioGenerator") {
    const segments = scriptSegments(speechScript(def, step, craft.steps));
    if (segments.length === 0) {
      throw appError("CR_ERR_BAD_REQUEST", "There is no script to record yet: write the script first.");
    }
    run.emit({ case: "started", value: { engine, framework: "" } });
    const text = JSON.stringify(segments);
    const asset = await deps.clients.media.generateSpeech(
      {
        userId: run.userId,
        segments,
        name: craft.craftName || def.title,
        projectId: craft.projectId,
        key: `${craft.id}:${step.name}:${createHash("sha256").update(text).digest("hex")}`,
      },
      run.signal,
    );
    return mediaResult(
      deps,
      asset,
      engine,
      `${segments.length} parts, ${new Set(segments.map((s) => s.speaker)).size} voices`,
    );
  }
  const picked = idFrom(run.raw, "assetId");
  const stock = picked ? undefined : idFrom(run.raw, "stockId");
  if (picked || stock) {
    // The user's own image (uploaded or crafted), or a stock photo kept as theirs: nothing generated or debited.
    run.emit({ case: "started", value: { engine: "user", framework: "" } });
    const as = { token: run.caller?.token, signal: run.signal };
    const asset = picked
      ? await deps.clients.media.getAsset(as, picked)
      : await deps.clients.media.importStock(as, stock!);
    if (asset.type !== "image") throw appError("CR_ERR_BAD_REQUEST", "Choose an image.", { assetId: "Not an image" });
    return mediaResult(deps, asset, "user", asset.name);
  }
  const request = imageRequest(def, step, craft.steps, craft.profile, craft.projectId);
  run.emit({ case: "started", value: { engine, framework: "" } });
  const asset = await deps.clients.media.generateImage({ token: run.caller?.token, signal: run.signal }, request);
  return mediaResult(deps, asset, engine, request.prompt);
}

/** `chosenId` in the spec's terms. @throws CR_ERR_BAD_REQUEST naming the field. */
function idFrom(raw: ActionRun["raw"], field: "assetId" | "stockId" | "designId"): string | undefined {
  try {
    return chosenId(raw, field);
  } catch (error) {
    throw appError("CR_ERR_BAD_REQUEST", (error as Error).message, { [field]: "Not an id" });
  }
}

/**
 * A VisualDesigner completion: the design the user saved (`designId`), its PNG kept as a designer
 * asset of the media service. Saving a design is no generation: nothing is debited.
 * @throws CR_ERR_BAD_REQUEST without a design; media's NOT_FOUND, CONFLICT (no PNG saved yet).
 */
async function keepDesign(deps: WorkflowsDeps, run: ActionRun): Promise<ResultRecord> {
  const designId = idFrom(run.raw, "designId");
  if (!designId) throw appError("CR_ERR_BAD_REQUEST", "Save your design first.", { designId: "Required" });
  run.emit({ case: "started", value: { engine: "media:designer", framework: "" } });
  const asset = await deps.clients.media.storeDesignAsset({ token: run.caller?.token, signal: run.signal }, designId);
  return {
    id: randomUUID(),
    content: asset.name,
    format: "data",
    data: designResultData(designId, asset),
    engine: "media:designer",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: deps.now(),
  };
}

function mediaResult(
  deps: WorkflowsDeps,
  asset: Awaited<ReturnType<WorkflowsDeps["clients"]["media"]["generateImage"]>>,
  engine: string,
  content: string,
): ResultRecord {
  return {
    id: randomUUID(),
    content,
    format: "data",
    data: { asset: { ...asset } },
    engine,
    ...(asset.label ? { note: asset.label } : {}),
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: deps.now(),
  };
}

/** A debit taken for a run, given back when the run fails or is cancelled. */
export interface Charge {
  debitId: string | null;
  amount: number;
  refund(): Promise<void>;
}

/**
 * Debits `amount` credits for a generation before any work; nothing when the amount is 0 or when
 * `textOf` names a workflow whose text the offline engine drafts (only provider calls cost
 * credits). @throws NEED_SUBSCRIPTION / NOT_ENOUGH_CREDITS from billing.
 */
export async function charge(
  deps: WorkflowsDeps,
  input: { userId: string; craftId: string; amount: number; reason: string; textOf?: string },
): Promise<Charge> {
  const offline = input.textOf !== undefined && (await deps.engines.forUser(input.userId)).isOffline(input.textOf);
  if (input.amount <= 0 || offline) return { debitId: null, amount: 0, refund: async () => {} };
  const credits = deps.clients.credits;
  const { debitId } = await credits.debit({ ...input, idempotencyKey: randomUUID() });
  let refunded = false;
  return {
    debitId,
    amount: input.amount,
    async refund() {
      if (refunded) return;
      refunded = true;
      await credits.refund(debitId).catch((error) => {
        // Billing refunds exactly once per debit id, so a later retry by an operator is safe.
        deps.logger.error({ err: error, debitId, craftId: input.craftId }, "credit refund failed");
      });
    },
  };
}

/**
 * Runs one generation outside a craft (image prompts, the assistant; `reason` is its engine name)
 * for 1 credit (none offline): debited before,
 * refunded when `work` throws. @throws NEED_SUBSCRIPTION / NOT_ENOUGH_CREDITS, and `work`'s errors.
 */
export async function withCredit<T>(
  deps: WorkflowsDeps,
  input: { userId: string; reason: string },
  work: () => Promise<T>,
): Promise<T> {
  const credit = await charge(deps, { ...input, craftId: "", amount: 1, textOf: input.reason });
  try {
    return await work();
  } catch (error) {
    await credit.refund();
    throw error;
  }
}

/** Credits one run of a step's action costs: `credits` per run, so per item of an IteratorStep. */
export function creditsFor(step: StepDefinition, runs: number): number {
  const action = step.action;
  if (!action || !(isTextAction(action) || action.kind === "FunctionCaller")) return 0;
  return action.credits * runs;
}

/** A single-consumer queue the work pushes into and the stream reads from. */
export class EventQueue<T> implements AsyncIterable<T> {
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

/**
 * Runs `work` apart from the consumer of the stream, so it always finishes (and releases the
 * lock, refunds) whether or not the transport keeps reading.
 */
export function streamOf(work: (emit: (event: StepEvent) => void) => Promise<void>): AsyncIterable<StepEvent> {
  const queue = new EventQueue<StepEvent>();
  work((event) => queue.push(event)).then(
    () => queue.close(),
    (error) => queue.fail(error),
  );
  return queue;
}

/** `meta.warnings` as the contract shapes it: `[{ field, message }]`, or undefined. */
export function warningsMeta(warnings: Record<string, string>): JsonValue[] | undefined {
  const list = Object.entries(warnings).map(([field, message]) => ({ field, message }));
  return list.length > 0 ? list : undefined;
}
