import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { appError, type Caller, CancelledError } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { withBrandVoice } from "../domain/brand-voice";
import { inlineTarget } from "../domain/craft";
import { checkInputs } from "../domain/inputs";
import { MalformedOutputError, shapeOutput } from "../domain/output";
import { buildInlineGeneration } from "../domain/prompt";
import { compact } from "../domain/view";
import { charge } from "./action-runner";
import { applyRule, conflict, definitionOf, loadCraft, requireField, withActionLock } from "./common";

export interface GenerateInlineTextInput {
  craftId: string;
  stepName: string;
  /** An InlineTextGenerator input (with a generator) or a command of the step's InlineTextGenerator action. */
  name: string;
  /** The step's current values (merged over the saved ones) plus free keys such as `text`, the selection. */
  params?: JsonObject;
}

export interface InlineText {
  text: string;
  /** `{ engine, framework?, note?, usage, credits, durationMs }`. */
  meta: JsonObject;
}

/**
 * Writes a piece of text for an editor (SmartEditor commands, InlineTextGenerator inputs) and
 * returns it whole; the step's values are not changed (the client puts the text where it goes).
 * Holds the craft's action lock (TooManyRunningActions), debits the generator's credits first and
 * refunds them when generation fails or `signal` aborts. The text is fitted to `maxLength`.
 * @throws CR_ERR_BAD_REQUEST for an unknown name or a skipped step; CONFLICT when the step is not open.
 */
export async function generateInlineText(
  deps: WorkflowsDeps,
  caller: Caller,
  input: GenerateInlineTextInput,
): Promise<InlineText> {
  const { userId, signal } = caller;
  const stepName = requireField(input.stepName, "stepName", "Step");
  const name = requireField(input.name, "name", "Name");
  return withActionLock(deps, input.craftId, async () => {
    const stored = await loadCraft(deps, caller, input.craftId);
    const def = definitionOf(deps, stored);
    const target = applyRule(() => inlineTarget(def, stored, stepName, name));
    const record = stored.steps.find((candidate) => candidate.name === stepName)!;
    const params = (input.params ?? {}) as Record<string, JsonValue>;
    const { values } = checkInputs(target.step, { ...record.values, ...params }, "save", {
      profile: stored.profile,
      steps: stored.steps,
    });
    const voice = await deps.clients.brandVoice.get(caller, stored.projectId);
    const request = withBrandVoice(
      buildInlineGeneration(def, target.step, target.generator, values, params, stored.steps, stored.profile),
      voice,
    );
    const credits = await charge(deps, {
      userId,
      craftId: stored.id,
      amount: target.credits,
      reason: `${def.name}/${stepName}:${name}`,
      textOf: def.name,
    });
    const started = Date.now();
    try {
      const engine = await deps.engines.forUser(userId);
      const info = engine.describe(request);
      const generation = engine.stream(request, signal, { paced: false });
      let text = "";
      for await (const chunk of generation) text += chunk;
      signal.throwIfAborted();
      const shaped = shapeOutput(request.output, text);
      const usage = { ...generation.usage };
      const saved = await deps.stores.crafts.saveProgress(userId, stored, stored.rev, {
        progress: stored,
        events: [deps.events.generationUsed(stored, stepName, info.engine, usage)],
        usage,
      });
      if (!saved) conflict();
      deps.kick();
      return {
        text: shaped.content,
        meta: compact({
          engine: info.engine,
          framework: info.framework || undefined,
          note: info.note,
          usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
          credits: credits.amount,
          durationMs: Date.now() - started,
        }),
      };
    } catch (error) {
      await credits.refund();
      if (signal.aborted) throw new CancelledError();
      if (error instanceof MalformedOutputError) {
        deps.logger.error({ craftId: stored.id, stepName, name, reason: error.message }, "malformed inline output");
        throw appError("InternalServerError");
      }
      throw error;
    }
  });
}
