import { MalformedOutputError, type ShapedOutput, shapeOutput } from "../domain/output";
import type { GenerationRequest } from "../domain/prompt";
import type { TokenUsage } from "../domain/types";
import { malformedOutputError } from "./errors";
import type { EngineInfo, TextEngine } from "./text-engine";

/** A whole generation, shaped: for calls that answer at once rather than stream. */
export interface Written {
  output: ShapedOutput;
  info: EngineInfo;
  usage: TokenUsage;
}

/**
 * Runs a generation to its end and shapes its text by `request.output`.
 * @throws the engine's AppError (RATE_LIMITED, InternalServerError…), the signal's reason on
 * abort, or malformedOutputError (ConflictingInputError from a model) for text of the wrong shape.
 */
export async function writeText(engine: TextEngine, request: GenerationRequest, signal: AbortSignal): Promise<Written> {
  const info = engine.describe(request);
  const run = engine.stream(request, signal, { paced: false });
  let text = "";
  for await (const chunk of run) text += chunk;
  signal.throwIfAborted();
  try {
    return { output: shapeOutput(request.output, text), info, usage: { ...run.usage } };
  } catch (error) {
    if (error instanceof MalformedOutputError) throw malformedOutputError(info.engine);
    throw error;
  }
}
