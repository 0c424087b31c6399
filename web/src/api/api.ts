import { createApiClient, type Method, type StorageLike } from "./client";
import {
  type BodyOf,
  type HttpMethod,
  type ParamsOf,
  type PathsFor,
  type paths,
  type ResultOf,
  urlOf,
} from "./contract";

/** localStorage, or an in-memory stand-in where the browser refuses storage (private modes). */
function browserStorage(): StorageLike {
  try {
    const probe = "crafter.probe";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    };
  }
}

/** The one browser instance of the gateway client. */
export const api = createApiClient({
  fetch: (url, init) => window.fetch(url, init),
  storage: browserStorage(),
  now: () => Date.now(),
  navigate: (url) => window.location.assign(url),
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  timers: {
    setInterval: (callback, ms) => window.setInterval(callback, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
  },
  // One refresh at a time across the tabs of this browser (the Web Locks API, where it exists).
  crossTabLock:
    typeof navigator !== "undefined" && navigator.locks
      ? (task) => navigator.locks.request("crafter.refresh", task)
      : undefined,
});

/** The SWR fetcher: every key is a gateway path. */
export const fetcher = <T>(path: string): Promise<T> => api.get<T>(path);

type Args<T> = Record<string, never> extends T ? [args?: T] : [args: T];
type ReadArgs<P extends PathsFor<"get">> = ParamsOf<P, "get"> & { signal?: AbortSignal };
type WriteArgs<P extends keyof paths, M extends HttpMethod> = ParamsOf<P, M> & {
  signal?: AbortSignal;
  headers?: Record<string, string>;
} & (undefined extends BodyOf<P, M>
    ? { body?: BodyOf<P, M> }
    : Record<string, never> extends BodyOf<P, M>
      ? { body?: BodyOf<P, M> }
      : { body: BodyOf<P, M> });

const write =
  <M extends Exclude<HttpMethod, "get">>(method: M) =>
  <P extends PathsFor<M>>(template: P, ...[args]: Args<WriteArgs<P, M>>): Promise<ResultOf<P, M>> => {
    const { path, query, body, signal, headers } = (args ?? {}) as {
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: unknown;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    };
    return api.request(method.toUpperCase() as Method, urlOf(template, { path, query }), { body, signal, headers });
  };

/**
 * The gateway client typed by the OpenAPI contract (@crafter/client's generated types): a path template, its
 * parameters and body in, the success envelope's `result` out; failures reject with an ApiError.
 * Same session contract as `api` (it is `api` underneath).
 *
 *   const page = await http.get("/api/contacts", { query: { q: "ada", page: 1 } });
 *   await http.del("/api/contacts/{id}", { path: { id } });
 */
export const http = {
  get: <P extends PathsFor<"get">>(template: P, ...[args]: Args<ReadArgs<P>>): Promise<ResultOf<P, "get">> => {
    const { path, query, signal } = (args ?? {}) as {
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      signal?: AbortSignal;
    };
    return api.get(urlOf(template, { path, query }), { signal });
  },
  post: write("post"),
  put: write("put"),
  patch: write("patch"),
  del: write("delete"),
};

/**
 * The SWR key of a typed read: the URL the fetcher gets, built like `http.get` builds it, so a
 * key factory and the hook that reads it cannot disagree.
 */
export function apiKey<P extends PathsFor<"get">>(template: P, ...[params]: Args<ParamsOf<P, "get">>): string {
  return urlOf(template, (params ?? {}) as { path?: Record<string, string>; query?: Record<string, unknown> });
}
