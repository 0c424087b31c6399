import { isMessage, type JsonObject, type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ErrorDetailSchema } from "@crafter/proto/crafter/common/v1/error_pb";
import {
  type CompleteStepResponse,
  type Craft as CraftMessage,
  type RunActionResponse,
  WorkflowsService,
} from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { api } from "./api";
import { ApiError } from "./errors";
import type { Craft, CraftState, CraftStep } from "./types";

/**
 * The browser's one streaming call (docs/api.md, "/rpc"): CompleteStep through the gateway's
 * Connect proxy, authenticated by the session cookie and following the same refresh contract as
 * the JSON client (refresh first when the marker has passed; on Unauthenticated before any
 * message, refresh once and retry once).
 */
const transport = createConnectTransport({
  baseUrl: "/rpc",
  fetch: (input, init) => globalThis.fetch(input, { ...init, credentials: "include", cache: "no-store" }),
});

const workflows = createClient(WorkflowsService, transport);

export interface CompleteStepArgs {
  craftId: string;
  stepName: string;
  values: Record<string, unknown>;
}

export interface StreamHandlers {
  onStarted?: (info: { engine: string; framework: string }) => void;
  onDelta: (text: string) => void;
}

export interface CompleteStepOutcome {
  result: JsonValue | null;
  meta: JsonObject | null;
  /** The craft after the step, in the REST shape of docs/api.md (null if the server sent none). */
  craft: Craft | null;
}

const iso = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp).toISOString() : "");

/** The streamed Craft message in the JSON shape the REST routes return (gateway toCraft). */
export function toRestCraft(craft: CraftMessage | undefined): Craft | null {
  if (!craft?.summary) return null;
  const { summary } = craft;
  return {
    craftId: summary.craftId,
    craftName: summary.craftName,
    workflowName: summary.workflowName,
    projectId: summary.projectId,
    state: summary.state as CraftState,
    createdAt: iso(summary.createdAt),
    updatedAt: iso(summary.updatedAt),
    version: craft.version,
    profileId: craft.profileId,
    currentStep: craft.currentStep,
    steps: (Array.isArray(craft.steps) ? craft.steps : []) as unknown as CraftStep[],
  };
}

const HTTP_STATUS: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.Aborted]: 409,
  [Code.FailedPrecondition]: 409,
  [Code.ResourceExhausted]: 429,
  [Code.Unavailable]: 503,
  [Code.DeadlineExceeded]: 504,
};

/**
 * A ConnectError as the ApiError the rest of the app shows (message rule of spec section 8). The
 * spec code and field messages come from the `crafter.common.v1.ErrorDetail` the services attach.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const connect = ConnectError.from(error);
  let detail: { code: string; fields: Record<string, string> } | undefined;
  try {
    detail = connect.findDetails(ErrorDetailSchema)[0];
  } catch {
    detail = undefined;
  }
  const code = detail?.code || (connect.code === Code.Unauthenticated ? "UNAUTHENTICATED" : null);
  return new ApiError({
    status: HTTP_STATUS[connect.code] ?? 500,
    code,
    serverMessage: connect.rawMessage || null,
    fields: detail && Object.keys(detail.fields).length > 0 ? { ...detail.fields } : null,
    cause: error,
  });
}

/** The result as plain JSON, whether the schema carries it as a Struct (JsonObject) or a Value message. */
function plainJson(value: unknown): JsonValue | null {
  if (value === undefined || value === null) return null;
  if (isMessage(value, ValueSchema)) return toJson(ValueSchema, value);
  return value as JsonValue;
}

/** JSON-only copy of the form values (a Struct cannot carry undefined). */
function toStruct(values: Record<string, unknown>): JsonObject {
  return JSON.parse(JSON.stringify(values ?? {})) as JsonObject;
}

/** One message of CompleteStep / RunAction (both stream `started | delta | completed`). */
type StepStreamMessage = CompleteStepResponse | RunActionResponse;
type OpenStream = (signal: AbortSignal | undefined) => AsyncIterable<StepStreamMessage>;

async function streamOnce(
  open: OpenStream,
  handlers: StreamHandlers,
  signal: AbortSignal | undefined,
  seen: { any: boolean },
) {
  let outcome: CompleteStepOutcome = { result: null, meta: null, craft: null };
  for await (const message of open(signal)) {
    seen.any = true;
    const event = message.event;
    if (event.case === "started")
      handlers.onStarted?.({ engine: event.value.engine, framework: event.value.framework });
    else if (event.case === "delta") handlers.onDelta(event.value.text);
    else if (event.case === "completed") {
      outcome = {
        result: plainJson(event.value.result),
        meta: event.value.meta ?? null,
        craft: toRestCraft(event.value.craft),
      };
    }
  }
  return outcome;
}

/** What one attempt at a stream ended with: its outcome, or a 401 (Unauthenticated before any message). */
type Attempt = { status: 200; outcome: CompleteStepOutcome } | { status: 401; error: unknown };

/** The stream under the JSON client's session contract (`api.withSession`); rejects with an ApiError. */
async function withRefresh(open: OpenStream, handlers: StreamHandlers, signal?: AbortSignal) {
  const seen = { any: false };
  try {
    const attempt = await api.withSession("/rpc", async (): Promise<Attempt> => {
      try {
        return { status: 200, outcome: await streamOnce(open, handlers, signal, seen) };
      } catch (error) {
        // Only a refusal before any message may be retried: a retry would repeat streamed text.
        if (ConnectError.from(error).code !== Code.Unauthenticated || seen.any || signal?.aborted) throw error;
        return { status: 401, error };
      }
    });
    if (attempt.status === 401) throw attempt.error;
    return attempt.outcome;
  } catch (error) {
    throw toApiError(error);
  }
}

/** Completes a step, calling `onDelta` as text streams in. Rejects with an ApiError. */
export function completeStepStream(
  args: CompleteStepArgs,
  handlers: StreamHandlers,
  signal?: AbortSignal,
): Promise<CompleteStepOutcome> {
  return withRefresh(
    (s) =>
      workflows.completeStep(
        { craftId: args.craftId, stepName: args.stepName, values: toStruct(args.values) },
        { signal: s },
      ),
    handlers,
    signal,
  );
}

export interface RunActionArgs {
  craftId: string;
  stepName: string;
  /** The step's action kind (must match the definition, else CR_ERR_BAD_REQUEST). */
  actionType: string;
  params: Record<string, unknown>;
}

/**
 * RunAction ("generate more") as a stream with cancel (engine contract section 2:
 * `started | delta | completed` like CompleteStep); cancelling saves nothing and refunds.
 */
export async function runActionStream(
  args: RunActionArgs,
  handlers: StreamHandlers,
  signal?: AbortSignal,
): Promise<CompleteStepOutcome> {
  return withRefresh(
    (s) =>
      workflows.runAction(
        { craftId: args.craftId, stepName: args.stepName, actionType: args.actionType, params: toStruct(args.params) },
        { signal: s },
      ),
    handlers,
    signal,
  );
}
