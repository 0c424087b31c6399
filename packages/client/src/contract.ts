import type { components, paths } from "./gen/openapi";

/**
 * Types of the gateway's REST contract, read from the generated OpenAPI types (gen/openapi.ts,
 * `make openapi`): a route's path parameters, query, JSON body and the `result` of its success
 * envelope, by path template and method.
 */

export type { components, paths };
/** A named schema of the document (`components.schemas`). */
export type Schema<N extends keyof components["schemas"]> = components["schemas"][N];

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** The path templates that have an operation for `M`, e.g. `"/api/contacts/{id}"`. */
export type PathsFor<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

export type Operation<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

type SuccessStatus = 200 | 201 | 202;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;

/** The `result` of the operation's 2xx envelope. */
export type ResultOf<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: JsonOf<R[S]> }[keyof R & SuccessStatus] extends infer E
      ? E extends { result: infer X }
        ? X
        : never
      : never
    : never;

/** The query parameters (undefined when the route takes none). */
export type QueryOf<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? ([Q] extends [never] ? undefined : Q) : undefined;

/** The path parameters, e.g. `{ id: string }` (undefined when the template has none). */
export type PathParamsOf<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { path?: infer X } } ? ([X] extends [never] ? undefined : X) : undefined;

/** The JSON request body (undefined when the route takes none). */
export type BodyOf<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { requestBody?: infer B }
    ? [JsonOf<NonNullable<B>>] extends [never]
      ? undefined
      : JsonOf<NonNullable<B>>
    : undefined;

/** `{ K?: T }` when T is undefined or has no required key, else `{ K: T }`. */
type Optional<K extends string, T> = undefined extends T
  ? { [key in K]?: T }
  : Record<string, never> extends T
    ? { [key in K]?: T }
    : { [key in K]: T };

/** What a typed call takes besides its path template: `path` and `query` parameters. */
export type ParamsOf<P extends keyof paths, M extends HttpMethod> = Optional<"path", PathParamsOf<P, M>> &
  Optional<"query", QueryOf<P, M>>;

type Primitive = string | number | boolean;

/**
 * The URL of a path template with its parameters: `{name}` segments are filled (encoded) and the
 * query is appended in key order, leaving out undefined, null and empty values (arrays repeat the
 * key). The same parameters give the same string, so it doubles as an SWR key.
 */
export function urlOf(
  template: string,
  params: { path?: Record<string, Primitive>; query?: Record<string, unknown> } = {},
): string {
  const filled = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params.path?.[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const key of Object.keys(params.query ?? {}).sort()) {
    const value = params.query?.[key];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === "") continue;
      query.append(key, String(item));
    }
  }
  const search = query.toString();
  return search ? `${filled}?${search}` : filled;
}

/** One page of a paged list route: `{ result, meta: { count, currentPage, totalPages } }`. */
export interface Page<T> {
  result: T[];
  meta: { count: number; currentPage: number; totalPages: number };
}
