import {
  type BodyOf,
  type HttpMethod,
  type ParamsOf,
  type PathsFor,
  type paths,
  type ResultOf,
  urlOf,
} from "./contract";

export type {
  BodyOf,
  components,
  HttpMethod,
  Page,
  ParamsOf,
  PathParamsOf,
  PathsFor,
  paths,
  QueryOf,
  ResultOf,
  Schema,
} from "./contract";
export { urlOf } from "./contract";

/**
 * A typed client of Crafter's REST API (the gateway's /api routes, docs/api.md) for scripts and
 * third parties, authenticated with a personal API key (Settings › API keys; `Authorization:
 * Bearer crk_…`). Requests and answers are typed by the gateway's OpenAPI document (the same one
 * /api/openapi.json serves, generated into src/gen by `make openapi`).
 *
 * Every answer is the envelope `{ success, result, errorMessage, error }`: a call resolves with
 * `result` and rejects with a CrafterApiError carrying the HTTP status, the error catalogue's code
 * and any field messages. A key reaches only what its scopes allow (`read` for every GET; writes
 * need `crafts`, `projects`, `settings` or `ai`); anything else answers 403 FORBIDDEN.
 */
export interface CrafterClientOptions {
  /** The gateway's origin, e.g. "https://app.example.com" (no trailing /api). */
  baseUrl: string;
  /** A personal API key, `crk_…`. */
  apiKey: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** A refused or failed call: the envelope's error, or a network failure (status 0, code "NETWORK"). */
export class CrafterApiError extends Error {
  readonly status: number;
  /** The error catalogue's code ("NOT_FOUND", "FORBIDDEN", …), or null. */
  readonly code: string | null;
  /** Field messages of a refused body, by field. */
  readonly fields: Record<string, string>;

  constructor(init: {
    status: number;
    code?: string | null;
    message?: string | null;
    fields?: Record<string, string>;
  }) {
    super(init.message?.trim() || `Crafter API error ${init.status}${init.code ? ` ${init.code}` : ""}`);
    this.name = "CrafterApiError";
    this.status = init.status;
    this.code = init.code ?? null;
    this.fields = init.fields ?? {};
  }
}

type Args<T> = Record<string, never> extends T ? [args?: T] : [args: T];
type Extra = {
  signal?: AbortSignal;
  /** Extra headers, e.g. `{ "idempotency-key": "…" }` on a create. */
  headers?: Record<string, string>;
};
type ReadArgs<P extends keyof paths> = ParamsOf<P, "get"> & Extra;
type WriteArgs<P extends keyof paths, M extends HttpMethod> = ParamsOf<P, M> &
  Extra &
  (undefined extends BodyOf<P, M>
    ? { body?: BodyOf<P, M> }
    : Record<string, never> extends BodyOf<P, M>
      ? { body?: BodyOf<P, M> }
      : { body: BodyOf<P, M> });

interface Envelope {
  success?: boolean;
  result?: unknown;
  errorMessage?: string | null;
  error?: { code?: string; fields?: Record<string, string> } | null;
}

/**
 * Makes a client. Each method takes a path template of the API, its `path` and `query`
 * parameters and its JSON `body`, all typed:
 *
 *   const crafter = createCrafterClient({ baseUrl: "https://app.example.com", apiKey: process.env.CRAFTER_KEY! });
 *   const { projects } = await crafter.get("/api/projects");
 *   const craft = await crafter.post("/api/workflowsV2", { body: { workflowName: "BlogPost" } });
 */
export function createCrafterClient(options: CrafterClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;

  const call = async (method: HttpMethod, template: string, args: Record<string, unknown> = {}): Promise<unknown> => {
    const { path, query, body, signal, headers } = args as {
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: unknown;
    } & Extra;
    const sent: Record<string, string> = {
      accept: "application/json",
      authorization: `Bearer ${options.apiKey}`,
      ...headers,
    };
    // The gateway wants the JSON content type on every state-changing request.
    const payload = method === "get" ? undefined : JSON.stringify(body ?? {});
    if (payload !== undefined) sent["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetchImpl(`${base}${urlOf(template, { path, query })}`, {
        method: method.toUpperCase(),
        headers: sent,
        body: payload,
        signal,
      });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw Object.assign(new CrafterApiError({ status: 0, code: "NETWORK", message: String(cause) }), { cause });
    }
    const answer = (await response.json().catch(() => null)) as Envelope | null;
    if (response.ok && answer?.success) return answer.result;
    throw new CrafterApiError({
      status: response.ok ? 400 : response.status,
      code: answer?.error?.code ?? null,
      message: answer?.errorMessage ?? null,
      fields: answer?.error?.fields ?? {},
    });
  };

  const write =
    <M extends Exclude<HttpMethod, "get">>(method: M) =>
    <P extends PathsFor<M>>(template: P, ...[args]: Args<WriteArgs<P, M>>) =>
      call(method, template, args as Record<string, unknown>) as Promise<ResultOf<P, M>>;

  return {
    get: <P extends PathsFor<"get">>(template: P, ...[args]: Args<ReadArgs<P>>) =>
      call("get", template, args as Record<string, unknown>) as Promise<ResultOf<P, "get">>,
    post: write("post"),
    put: write("put"),
    patch: write("patch"),
    del: write("delete"),
  };
}

export type CrafterClient = ReturnType<typeof createCrafterClient>;
