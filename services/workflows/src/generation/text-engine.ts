import type { GenerationRequest } from "../domain/prompt";
import type { TokenUsage } from "../domain/types";

/** How a result was made, announced in the stream's `started` event and kept on the result. */
export interface EngineInfo {
  /** "offline" or the provider's model id. */
  engine: string;
  /** The copywriting framework (offline engine), else "". */
  framework: string;
  /** Said on every result of this engine, when there is something to say (the offline engine). */
  note?: string;
}

/** The text of one generation as it is written; `usage` is final once iteration has ended. */
export interface GenerationRun extends AsyncIterable<string> {
  readonly usage: TokenUsage;
}

/** How the text of a generation is read. */
export interface StreamOptions {
  /**
   * Someone reads the text as it is written (a stream to the browser): the offline engine paces
   * its chunks only then, so the draft is seen being written. A caller that collects the whole text
   * (a REST answer, an inline rewrite) gets it at once, in one chunk. Providers stream at their own pace either way.
   */
  paced: boolean;
}

/**
 * One interface for every way of writing text: the Vercel AI SDK against a configured provider,
 * or the offline engine. `stream` stops with the signal's reason when `signal` aborts, and fails
 * with an AppError of the spec's catalogue when the provider fails.
 */
export interface TextEngine {
  readonly name: string;
  describe(request: GenerationRequest): EngineInfo;
  /** True when this workflow's text is drafted offline: such drafts cost no credits (DESIGN §6). */
  isOffline(workflowName: string): boolean;
  /** @param options paced unless told otherwise (a stream to the browser). */
  stream(request: GenerationRequest, signal: AbortSignal, options?: StreamOptions): GenerationRun;
}
