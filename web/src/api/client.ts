import { ApiError } from "./errors";

/**
 * The gateway client with the session refresh contract of spec sections 4 and 7 (DESIGN section 4):
 *
 * - an expiry marker (`localStorage["crafter.expiresAt"]`, epoch ms) is set one hour ahead on
 *   sign-in and on every refresh;
 * - a timer refreshes every 55 minutes while a marker exists;
 * - one refresh runs at a time: concurrent callers share one promise (single flight), and tabs
 *   take turns through a cross-tab lock (the Web Locks API): a tab that waited skips its refresh
 *   when another tab renewed the marker meanwhile, because the auth service allows a refresh
 *   token's reuse only once (issue 9) and the tabs share the cookies;
 * - before a request, when the marker has passed, a refresh runs first;
 * - on a 401 the client refreshes once and retries the request once;
 * - a 401 from `/auth/token/refresh` clears the marker and sends the user to
 *   `/signin?callbackUrl=<current path>`;
 * - the unauthenticated auth routes never trigger a refresh.
 *
 * Every side effect (fetch, storage, clock, navigation, timers) is injected, so the contract is
 * unit tested without a browser (client.test.ts).
 */

export const EXPIRY_KEY = "crafter.expiresAt";
export const SESSION_TTL_MS = 60 * 60 * 1000;
export const REFRESH_INTERVAL_MS = 55 * 60 * 1000;
export const REFRESH_PATH = "/auth/token/refresh";
export const SIGNIN_PAGE = "/signin";

/** Calls that work without a session: a 401 from them is an answer, never a reason to refresh. */
export const NO_REFRESH_PATHS: readonly string[] = [
  "/auth/signin",
  "/auth/signup",
  "/auth/password/forgot",
  "/auth/password/reset",
  "/auth/verify",
  "/auth/verify/resend",
  REFRESH_PATH,
];

export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  json(): Promise<unknown>;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<ResponseLike>;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TimersLike {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface ClientDeps {
  fetch: FetchLike;
  storage: StorageLike;
  /** Epoch milliseconds. */
  now: () => number;
  /** A full navigation (the session is gone; nothing in memory should survive it). */
  navigate: (url: string) => void;
  /** The current location as pathname + search, used as the callbackUrl. */
  currentPath: () => string;
  timers?: TimersLike;
  /**
   * Runs `task` while holding the browser-wide refresh lock (navigator.locks in the browser), so
   * only one tab refreshes at a time. Absent: this tab's single flight only.
   */
  crossTabLock?: (task: () => Promise<void>) => Promise<void>;
  /** Prefix for every path ("" in the browser: same origin). */
  baseUrl?: string;
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Envelope {
  success: boolean;
  result: unknown;
  errorMessage?: string | null;
  error?: { code?: string; fields?: Record<string, string> } | null;
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === "object" && body !== null && "success" in body;
}

function pathOf(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/**
 * The result of a gateway answer (status, parsed JSON body or null): the envelope's `result` when
 * the status is 2xx and `success` is true, else the envelope's failure as an ApiError (a 2xx with
 * `success: false` counts as 400). A body that is no envelope is returned as is when 2xx.
 */
export function envelopeResult<T>(status: number, body: unknown): T {
  const ok = status >= 200 && status < 300;
  if (isEnvelope(body)) {
    if (ok && body.success) return body.result as T;
    throw new ApiError({
      status: ok ? 400 : status,
      code: body.error?.code ?? (status === 401 ? "UNAUTHENTICATED" : null),
      serverMessage: body.errorMessage ?? null,
      fields: body.error?.fields ?? null,
    });
  }
  if (ok) return body as T;
  throw new ApiError({ status, code: status === 401 ? "UNAUTHENTICATED" : null });
}

/** True for the pages that need a session (the guard's /app* rule). */
export function isProtectedPath(pathname: string): boolean {
  return pathname === "/app" || pathname.startsWith("/app/") || pathname === "/_app";
}

export interface ApiClient {
  request<T>(method: Method, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">): Promise<T>;
  del<T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T>;
  /**
   * The session contract around any transport (fetch, an XHR upload, a stream): refreshes first
   * when the marker has passed, sends, and on a 401 refreshes once (shared with concurrent callers)
   * and sends once more; the second answer is returned as it is. Auth routes that need no session
   * (NO_REFRESH_PATHS) are sent once, as they are. `send` must be callable twice.
   */
  withSession<R extends { readonly status: number }>(path: string, send: () => Promise<R>): Promise<R>;
  /** Refreshes the session; concurrent callers share one call. Rejects with the refresh's ApiError. */
  refresh(): Promise<void>;
  /** Refreshes first when the expiry marker has passed (used before streaming calls too). */
  ensureFresh(): Promise<void>;
  /** Sets the expiry marker one hour ahead (after sign-in). */
  markSignedIn(): void;
  /** Removes the expiry marker (sign-out, dead session). */
  clearSession(): void;
  /** True while an expiry marker exists: the only case in which /auth/check is called. */
  hasSession(): boolean;
  /** True when a marker exists and its time has passed (or it is unreadable). */
  isExpired(): boolean;
  /** Notifies on every marker change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Starts the 55-minute refresh timer (idempotent); returns its stop function. */
  startRefreshTimer(): () => void;
}

export function createApiClient(deps: ClientDeps): ApiClient {
  const base = deps.baseUrl ?? "";
  const listeners = new Set<() => void>();
  let inflight: Promise<void> | null = null;
  /** Incremented by every successful refresh: a request that got its 401 with credentials older
   * than the last refresh just retries, so concurrent 401s cost one refresh, not one each. */
  let generation = 0;
  let timer: unknown = null;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const readMarker = (): string | null => {
    try {
      return deps.storage.getItem(EXPIRY_KEY);
    } catch {
      return null;
    }
  };

  const setMarker = () => {
    deps.storage.setItem(EXPIRY_KEY, String(deps.now() + SESSION_TTL_MS));
    notify();
  };

  const clearSession = () => {
    try {
      deps.storage.removeItem(EXPIRY_KEY);
    } finally {
      notify();
    }
  };

  const hasSession = () => readMarker() !== null;

  const isExpired = () => {
    const marker = readMarker();
    if (marker === null) return false;
    const at = Number(marker);
    return !Number.isFinite(at) || at <= deps.now();
  };

  const sendToSignin = () => {
    const current = deps.currentPath();
    // Public pages (home, /signin, /verify…) work without a session: the cleared marker already
    // makes the guard treat the visitor as logged out there.
    if (!isProtectedPath(pathOf(current))) return;
    deps.navigate(`${SIGNIN_PAGE}?callbackUrl=${encodeURIComponent(current)}`);
  };

  const send = async (method: Method, path: string, options: RequestOptions): Promise<ResponseLike> => {
    const isForm = typeof FormData !== "undefined" && options.body instanceof FormData;
    // A Blob (a CSV file) is sent raw, with its own content type.
    const isBlob = typeof Blob !== "undefined" && options.body instanceof Blob;
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (isForm) body = options.body as FormData;
      else if (isBlob) {
        headers["Content-Type"] ??= (options.body as Blob).type || "application/octet-stream";
        body = options.body as Blob;
      } else {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(options.body);
      }
    } else if (method !== "GET") {
      // The gateway's CSRF rule wants the JSON content type on every state-changing request.
      headers["Content-Type"] = "application/json";
      body = "{}";
    }
    try {
      return await deps.fetch(`${base}${path}`, {
        method,
        headers,
        body,
        credentials: "include",
        cache: "no-store",
        signal: options.signal,
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw ApiError.network(cause);
    }
  };

  const parse = async <T>(response: ResponseLike): Promise<T> => {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return envelopeResult<T>(response.status, body);
  };

  const doRefresh = async (): Promise<void> => {
    const response = await send("POST", REFRESH_PATH, { body: {}, headers: { "X-Refresh-Retry": "1" } });
    if (response.status === 401) {
      clearSession();
      sendToSignin();
      await parse(response); // throws the server's ApiError
      throw new ApiError({ status: 401, code: "UNAUTHENTICATED" });
    }
    await parse(response);
    generation += 1;
    setMarker();
  };

  /** Refreshes under the cross-tab lock; skipped when another tab renewed the marker while we waited. */
  const refreshAcrossTabs = async (): Promise<void> => {
    if (!deps.crossTabLock) return doRefresh();
    const seen = deps.storage.getItem(EXPIRY_KEY);
    await deps.crossTabLock(async () => {
      const now = deps.storage.getItem(EXPIRY_KEY);
      if (now !== null && now !== seen && !isExpired()) {
        generation += 1; // the shared cookies are new: requests that got a 401 before may retry
        notify();
        return;
      }
      await doRefresh();
    });
  };

  const refresh = (): Promise<void> => {
    if (!inflight) {
      inflight = refreshAcrossTabs().finally(() => {
        inflight = null;
      });
    }
    return inflight;
  };

  const ensureFresh = async () => {
    if (inflight) return inflight;
    if (isExpired()) await refresh();
  };

  const withSession = async <R extends { readonly status: number }>(path: string, send: () => Promise<R>) => {
    const mayRefresh = !NO_REFRESH_PATHS.includes(pathOf(path));
    if (mayRefresh) await ensureFresh();
    const sentAt = generation;
    const response = await send();
    if (response.status !== 401 || !mayRefresh) return response;
    // One refresh (shared with any concurrent caller; skipped when one already finished after
    // this request was sent), then one retry. A second 401 is the answer.
    if (sentAt === generation) await refresh();
    return send();
  };

  const request = async <T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> =>
    parse<T>(await withSession(path, () => send(method, path, options)));

  return {
    request,
    withSession,
    get: (path, options) => request("GET", path, options),
    post: (path, body, options) => request("POST", path, { ...options, body }),
    put: (path, body, options) => request("PUT", path, { ...options, body }),
    del: (path, options) => request("DELETE", path, options),
    refresh,
    ensureFresh,
    markSignedIn: setMarker,
    clearSession,
    hasSession,
    isExpired,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    startRefreshTimer() {
      const timers = deps.timers;
      if (!timers) return () => {};
      if (timer === null) {
        timer = timers.setInterval(() => {
          if (hasSession()) refresh().catch(() => {});
        }, REFRESH_INTERVAL_MS);
      }
      return () => {
        if (timer !== null) timers.clearInterval(timer);
        timer = null;
      };
    },
  };
}
