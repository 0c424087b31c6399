import type { JsonValue } from "@bufbuild/protobuf";
import type { FunctionName } from "@crafter/workflow-language";

/** What a function may use besides its args. */
export interface FunctionContext {
  /** The user the craft belongs to (for per-user limits and logs). */
  userId: string;
  craftId: string;
  /** Aborts when the client cancels or the server drains; stop the work and reject with its reason. */
  signal: AbortSignal;
}

/** A function's answer: a readable `content` (shown as the result) and its JSON `data`. */
export interface FunctionAnswer {
  content: string;
  data: JsonValue;
}

/**
 * A FunctionCaller action's function (definition `action.function`), called with the action's
 * `args` after their `{{references}}` are filled in (empty references give "").
 * Failures are AppErrors of the spec's catalogue (kit `appError`): e.g. InvalidUrl,
 * UnableToReadWebPage, CR_ERR_WEBSITE_AUDIT, NoKeywordDataFound, NoCompetitorDataFound.
 */
export type WorkflowFunction = (args: Record<string, string>, ctx: FunctionContext) => Promise<FunctionAnswer>;

/** The functions the engine can call, by name; a missing one fails the action with InternalServerError. */
export type FunctionRegistry = Partial<Record<FunctionName, WorkflowFunction>>;
