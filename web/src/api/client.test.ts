import { describe, expect, it } from "@jest/globals";
import {
  type ClientDeps,
  createApiClient,
  EXPIRY_KEY,
  envelopeResult,
  REFRESH_INTERVAL_MS,
  REFRESH_PATH,
  type ResponseLike,
  SESSION_TTL_MS,
} from "./client";
import { ApiError, errorMessage } from "./errors";

// ---------- a fake browser: fetch, storage, clock, navigation, timers ----------

interface Call {
  url: string;
  init: RequestInit;
}

type Handler = (call: Call, calls: Call[]) => ResponseLike | Promise<ResponseLike>;

const NOW = 1_700_000_000_000;

const headersOf = (call: Call | undefined): Record<string, string> =>
  (call?.init.headers ?? {}) as Record<string, string>;

function json(status: number, body: unknown): ResponseLike {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
const ok = (result: unknown, status = 200) => json(status, { success: true, result, errorMessage: null, error: null });
const fail = (status: number, code: string, errorMessage: string | null, fields?: Record<string, string>) =>
  json(status, { success: false, result: null, errorMessage, error: { code, ...(fields ? { fields } : {}) } });
const unauthenticated = () => fail(401, "UNAUTHENTICATED", "Your session has expired. Please sign in again.");
const refreshed = () => ok({ user: { userId: "u1" }, expiresAt: new Date(NOW + SESSION_TTL_MS).toISOString() });

/** A promise resolved from outside, to hold a response while other calls pile up. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function setup(options: { handler: Handler; marker?: number | string | null; path?: string; now?: number }) {
  const store = new Map<string, string>();
  if (options.marker !== undefined && options.marker !== null) store.set(EXPIRY_KEY, String(options.marker));
  const calls: Call[] = [];
  const navigations: string[] = [];
  const intervals: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const clock = { now: options.now ?? NOW };
  const deps: ClientDeps = {
    fetch: async (url, init) => {
      const call = { url, init };
      calls.push(call);
      return options.handler(call, calls);
    },
    storage: {
      getItem: (key) => store.get(key) ?? null,
      setItem: (key, value) => void store.set(key, value),
      removeItem: (key) => void store.delete(key),
    },
    now: () => clock.now,
    navigate: (url) => void navigations.push(url),
    currentPath: () => options.path ?? "/app/crafts?page=2",
    timers: {
      setInterval: (callback, ms) => {
        intervals.push({ callback, ms, cleared: false });
        return intervals.length - 1;
      },
      clearInterval: (handle) => {
        const interval = intervals[handle as number];
        if (interval) interval.cleared = true;
      },
    },
  };
  const client = createApiClient(deps);
  const refreshCalls = () => calls.filter((call) => call.url === REFRESH_PATH);
  const pathsCalled = () => calls.map((call) => call.url);
  return { client, store, calls, navigations, intervals, clock, refreshCalls, pathsCalled };
}

/** Answers a path 401 on its first call and `answer` after a refresh happened. */
function expiredUntilRefresh(
  answer: (url: string) => ResponseLike,
  refresh: () => ResponseLike | Promise<ResponseLike> = refreshed,
): Handler {
  let refreshedOnce = false;
  return async ({ url }) => {
    if (url === REFRESH_PATH) {
      const response = await refresh();
      refreshedOnce = response.status === 200;
      return response;
    }
    return refreshedOnce ? answer(url) : unauthenticated();
  };
}

// ---------- tests ----------

describe("requests and the envelope", () => {
  it("sends JSON with credentials and no caching, and unwraps the result", async () => {
    const env = setup({ marker: NOW + 10_000, handler: () => ok({ projectId: "p1" }) });
    await expect(env.client.put("/api/userSettings/settings", { theme: "dark" })).resolves.toEqual({ projectId: "p1" });
    const [call] = env.calls;
    expect(call?.init.method).toBe("PUT");
    expect(call?.init.credentials).toBe("include");
    expect(call?.init.cache).toBe("no-store");
    expect(headersOf(call)["Content-Type"]).toBe("application/json");
    expect(call?.init.body).toBe(JSON.stringify({ theme: "dark" }));
  });

  it("sends a JSON {} body on bodiless state-changing calls (the gateway's CSRF rule) and none on GET", async () => {
    const env = setup({ marker: NOW + 10_000, handler: () => ok({}) });
    await env.client.post("/auth/signout");
    await env.client.get("/api/user/account");
    expect(env.calls[0]?.init.body).toBe("{}");
    expect(headersOf(env.calls[0])["Content-Type"]).toBe("application/json");
    expect(env.calls[1]?.init.body).toBeUndefined();
  });

  it("treats success=false as a failure carrying the server's errorMessage, code and fields", async () => {
    const env = setup({
      marker: NOW + 10_000,
      handler: () => fail(400, "InvalidUrl", "Invalid URL", { websiteUrl: "Invalid URL" }),
    });
    const error = await env.client.post("/api/projects/createProject", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "InvalidUrl",
      message: "Invalid URL",
      fields: { websiteUrl: "Invalid URL" },
    });
  });

  it("fails a 200 answer whose envelope says success=false", async () => {
    const env = setup({
      marker: NOW + 10_000,
      handler: () => json(200, { success: false, result: null, errorMessage: "Nope", error: null }),
    });
    await expect(env.client.get("/api/x")).rejects.toMatchObject({ message: "Nope" });
  });

  it("follows the message rule: server message, else the error's own, else 'Network error!'", async () => {
    const broken = setup({
      marker: NOW + 10_000,
      handler: () => new Response("<html>bad gateway</html>", { status: 502 }),
    });
    const noEnvelope = await broken.client.get("/api/x").catch((e: unknown) => e);
    expect(noEnvelope).toMatchObject({ status: 502, message: "Network error!" });

    const offline = setup({
      marker: NOW + 10_000,
      handler: () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const network = await offline.client.get("/api/x").catch((e: unknown) => e);
    expect(network).toMatchObject({ status: 0, code: "NETWORK", message: "Network error!" });

    expect(errorMessage(new Error("Own message"))).toBe("Own message");
    expect(errorMessage({ rawMessage: "Connect message" })).toBe("Connect message");
    expect(errorMessage(undefined)).toBe("Network error!");
    expect(errorMessage(new Error(""))).toBe("Network error!");
  });
});

describe("refresh contract: 401 → one refresh → one retry", () => {
  it("refreshes with POST {} and X-Refresh-Retry: 1, renews the marker one hour ahead, and retries", async () => {
    const env = setup({ marker: NOW + 60_000, handler: expiredUntilRefresh(() => ok({ crafts: [] })) });
    await expect(env.client.get("/api/workflowsV2?page=1")).resolves.toEqual({ crafts: [] });
    expect(env.pathsCalled()).toEqual(["/api/workflowsV2?page=1", REFRESH_PATH, "/api/workflowsV2?page=1"]);
    const refresh = env.refreshCalls()[0];
    expect(refresh?.init.method).toBe("POST");
    expect(refresh?.init.body).toBe("{}");
    expect(headersOf(refresh)["X-Refresh-Retry"]).toBe("1");
    expect(headersOf(refresh)["Content-Type"]).toBe("application/json");
    expect(env.store.get(EXPIRY_KEY)).toBe(String(NOW + SESSION_TTL_MS));
  });

  it("retries only once: a second 401 is the answer", async () => {
    const env = setup({
      marker: NOW + 60_000,
      handler: ({ url }) => (url === REFRESH_PATH ? refreshed() : unauthenticated()),
    });
    const error = await env.client.get("/api/app/initial").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    expect(env.pathsCalled()).toEqual(["/api/app/initial", REFRESH_PATH, "/api/app/initial"]);
    expect(env.navigations).toEqual([]);
  });

  it("runs one refresh for many concurrent 401s (single flight)", async () => {
    const gate = deferred<ResponseLike>();
    const env = setup({
      marker: NOW + 60_000,
      handler: expiredUntilRefresh(
        (url) => ok({ url }),
        () => gate.promise,
      ),
    });
    const requests = ["/api/a", "/api/b", "/api/c", "/api/d"].map((path) => env.client.get<{ url: string }>(path));
    // Let every request get its 401 and join the refresh before the refresh answers.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(env.refreshCalls()).toHaveLength(1);
    gate.resolve(refreshed());
    const results = await Promise.all(requests);
    expect(results.map((r) => r.url)).toEqual(["/api/a", "/api/b", "/api/c", "/api/d"]);
    expect(env.refreshCalls()).toHaveLength(1);
    expect(env.calls).toHaveLength(4 + 1 + 4);
  });

  it("shares one refresh between direct concurrent refresh() calls", async () => {
    const gate = deferred<ResponseLike>();
    const env = setup({ marker: NOW - 1, handler: () => gate.promise });
    const all = Promise.all([env.client.refresh(), env.client.refresh(), env.client.ensureFresh()]);
    gate.resolve(refreshed());
    await all;
    expect(env.refreshCalls()).toHaveLength(1);
    // Once settled, a later refresh is a new call.
    const next = env.client.refresh();
    await expect(next).resolves.toBeUndefined();
    expect(env.refreshCalls()).toHaveLength(2);
  });

  it("does not refresh again for a 401 that answered credentials older than a finished refresh", async () => {
    // /api/slow is sent before the refresh and answers 401 only after the refresh finished.
    const slow = deferred<ResponseLike>();
    let slowCalls = 0;
    const env = setup({
      marker: NOW + 60_000,
      handler: ({ url }) => {
        if (url === REFRESH_PATH) return refreshed();
        if (url === "/api/slow") return ++slowCalls === 1 ? slow.promise : ok("slow");
        return env.refreshCalls().length > 0 ? ok("fast") : unauthenticated();
      },
    });
    const slowRequest = env.client.get("/api/slow");
    await expect(env.client.get("/api/fast")).resolves.toBe("fast");
    slow.resolve(unauthenticated());
    await expect(slowRequest).resolves.toBe("slow");
    expect(env.refreshCalls()).toHaveLength(1);
  });

  it("on a 401 from the refresh: clears the marker, goes to /signin?callbackUrl=<current path>, no retry", async () => {
    const env = setup({
      marker: NOW + 60_000,
      path: "/app/crafts?page=2",
      handler: ({ url }) =>
        url === REFRESH_PATH ? fail(401, "UNAUTHENTICATED", "Refresh token expired") : unauthenticated(),
    });
    const error = await env.client.get("/api/app/initial").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    expect(env.store.has(EXPIRY_KEY)).toBe(false);
    expect(env.navigations).toEqual([`/signin?callbackUrl=${encodeURIComponent("/app/crafts?page=2")}`]);
    expect(env.pathsCalled()).toEqual(["/api/app/initial", REFRESH_PATH]);
  });

  it("on a refresh 401 from a public page: clears the marker without navigating", async () => {
    const env = setup({
      marker: NOW + 60_000,
      path: "/verify?token=abc",
      handler: ({ url }) => (url === REFRESH_PATH ? fail(401, "UNAUTHENTICATED", null) : unauthenticated()),
    });
    await expect(env.client.get("/auth/check")).rejects.toMatchObject({ status: 401 });
    expect(env.store.has(EXPIRY_KEY)).toBe(false);
    expect(env.navigations).toEqual([]);
  });

  it("keeps the marker when the refresh fails for another reason (network, 500)", async () => {
    const env = setup({
      marker: NOW + 60_000,
      handler: ({ url }) => (url === REFRESH_PATH ? fail(500, "InternalServerError", null) : unauthenticated()),
    });
    await expect(env.client.get("/api/x")).rejects.toMatchObject({ status: 500 });
    expect(env.store.has(EXPIRY_KEY)).toBe(true);
    expect(env.navigations).toEqual([]);
  });
});

describe("refresh contract: proactive refresh", () => {
  it("refreshes before a request when the marker has passed", async () => {
    const env = setup({ marker: NOW - 1, handler: ({ url }) => (url === REFRESH_PATH ? refreshed() : ok("data")) });
    await expect(env.client.get("/api/app/initial")).resolves.toBe("data");
    expect(env.pathsCalled()).toEqual([REFRESH_PATH, "/api/app/initial"]);
    expect(env.store.get(EXPIRY_KEY)).toBe(String(NOW + SESSION_TTL_MS));
  });

  it("treats an unreadable marker as passed", async () => {
    const env = setup({ marker: "garbage", handler: ({ url }) => (url === REFRESH_PATH ? refreshed() : ok("data")) });
    await env.client.get("/api/x");
    expect(env.pathsCalled()).toEqual([REFRESH_PATH, "/api/x"]);
  });

  it("does not refresh while the marker is in the future, nor without a marker", async () => {
    const fresh = setup({ marker: NOW + 1, handler: () => ok("data") });
    await fresh.client.get("/api/x");
    expect(fresh.pathsCalled()).toEqual(["/api/x"]);

    const none = setup({ marker: null, handler: () => ok("data") });
    await none.client.get("/api/x");
    expect(none.pathsCalled()).toEqual(["/api/x"]);
    expect(none.client.hasSession()).toBe(false);
  });

  it("shares the proactive refresh between concurrent requests", async () => {
    const gate = deferred<ResponseLike>();
    const env = setup({ marker: NOW - 1, handler: ({ url }) => (url === REFRESH_PATH ? gate.promise : ok(url)) });
    const requests = Promise.all([env.client.get("/api/a"), env.client.get("/api/b")]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    gate.resolve(refreshed());
    await expect(requests).resolves.toEqual(["/api/a", "/api/b"]);
    expect(env.refreshCalls()).toHaveLength(1);
  });

  it("refreshes every 55 minutes while a session exists", async () => {
    const env = setup({ marker: NOW + SESSION_TTL_MS, handler: () => refreshed() });
    const stop = env.client.startRefreshTimer();
    env.client.startRefreshTimer(); // idempotent
    expect(env.intervals).toHaveLength(1);
    expect(env.intervals[0]?.ms).toBe(REFRESH_INTERVAL_MS);
    expect(REFRESH_INTERVAL_MS).toBe(55 * 60 * 1000);

    env.clock.now = NOW + REFRESH_INTERVAL_MS;
    env.intervals[0]?.callback();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(env.refreshCalls()).toHaveLength(1);
    expect(env.store.get(EXPIRY_KEY)).toBe(String(NOW + REFRESH_INTERVAL_MS + SESSION_TTL_MS));

    env.store.delete(EXPIRY_KEY);
    env.intervals[0]?.callback();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(env.refreshCalls()).toHaveLength(1);

    stop();
    expect(env.intervals[0]?.cleared).toBe(true);
  });
});

describe("refresh contract: unauthenticated routes never refresh", () => {
  for (const path of ["/auth/signin", "/auth/signup", "/auth/password/forgot", "/auth/password/reset"]) {
    it(`${path}: no proactive refresh and no refresh on 401`, async () => {
      const env = setup({
        marker: NOW - 1, // passed: any other call would refresh first
        handler: () => fail(401, "InvalidCredentials", "Invalid email or password."),
      });
      const error = await env.client.post(path, { email: "a@b.co" }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 401, code: "InvalidCredentials", message: "Invalid email or password." });
      expect(env.pathsCalled()).toEqual([path]);
      expect(env.navigations).toEqual([]);
      expect(env.store.has(EXPIRY_KEY)).toBe(true);
    });
  }
});

describe("session marker", () => {
  it("is set one hour ahead on sign-in and cleared on sign-out, notifying subscribers", () => {
    const env = setup({ handler: () => ok({}) });
    let notified = 0;
    const unsubscribe = env.client.subscribe(() => {
      notified += 1;
    });
    expect(env.client.hasSession()).toBe(false);
    env.client.markSignedIn();
    expect(env.store.get(EXPIRY_KEY)).toBe(String(NOW + SESSION_TTL_MS));
    expect(env.client.hasSession()).toBe(true);
    expect(env.client.isExpired()).toBe(false);
    env.clock.now = NOW + SESSION_TTL_MS;
    expect(env.client.isExpired()).toBe(true);
    env.client.clearSession();
    expect(env.client.hasSession()).toBe(false);
    expect(notified).toBe(2);
    unsubscribe();
    env.client.markSignedIn();
    expect(notified).toBe(2);
  });
});

describe("tabs of one browser", () => {
  /** Two tabs: one storage (localStorage is shared), one lock (navigator.locks), one server. */
  function twoTabs() {
    const store = new Map<string, string>([[EXPIRY_KEY, String(NOW - 1)]]);
    const refreshes: string[] = [];
    let chain: Promise<void> = Promise.resolve();
    const crossTabLock = (task: () => Promise<void>) => {
      const run = chain.then(task);
      chain = run.catch(() => {});
      return run;
    };
    const tab = (name: string) =>
      createApiClient({
        fetch: async (url) => {
          if (url === REFRESH_PATH) refreshes.push(name);
          return url === REFRESH_PATH ? refreshed() : ok({});
        },
        storage: {
          getItem: (key) => store.get(key) ?? null,
          setItem: (key, value) => void store.set(key, value),
          removeItem: (key) => void store.delete(key),
        },
        now: () => NOW,
        navigate: () => {},
        currentPath: () => "/app",
        crossTabLock,
      });
    return { a: tab("a"), b: tab("b"), refreshes };
  }

  it("refresh one at a time: a tab that waited uses the other's renewed session", async () => {
    const { a, b, refreshes } = twoTabs();
    await Promise.all([a.get("/api/user/account"), b.get("/api/user/account")]);
    // The auth service allows a refresh token's reuse once; a storm of tabs must not spend it.
    expect(refreshes).toHaveLength(1);
  });

  it("still refresh when the marker is stale after the lock", async () => {
    const { a, refreshes } = twoTabs();
    await a.refresh();
    await a.refresh();
    expect(refreshes).toEqual(["a", "a"]);
  });
});

// Uploads (XHR), byte downloads and the CompleteStep stream send through withSession: the same
// contract over a transport the client does not own.
describe("withSession: the contract around any transport", () => {
  /** A transport answering 401 until the session was refreshed, counting its sends. */
  function transport(env: ReturnType<typeof setup>) {
    const sends: number[] = [];
    return {
      sends,
      send: async () => {
        sends.push(env.refreshCalls().length);
        return { status: env.refreshCalls().length > 0 ? 201 : 401 };
      },
    };
  }

  it("refreshes once on a 401 and sends once more, answering the second result", async () => {
    const env = setup({ marker: NOW + 10_000, handler: () => refreshed() });
    const upload = transport(env);
    await expect(env.client.withSession("/api/media/assets", upload.send)).resolves.toEqual({ status: 201 });
    expect(upload.sends).toEqual([0, 1]);
    expect(env.refreshCalls()).toHaveLength(1);
  });

  it("refreshes first when the marker has passed", async () => {
    const env = setup({ marker: NOW - 1, handler: () => refreshed() });
    const upload = transport(env);
    await env.client.withSession("/api/media/assets", upload.send);
    expect(upload.sends).toEqual([1]);
  });

  it("shares one refresh with concurrent JSON calls", async () => {
    const env = setup({ marker: NOW + 10_000, handler: expiredUntilRefresh(() => ok({})) });
    const upload = transport(env);
    await Promise.all([env.client.get("/api/user/account"), env.client.withSession("/rpc", upload.send)]);
    expect(env.refreshCalls()).toHaveLength(1);
  });

  it("answers a second 401 as it is, and a refused refresh sends the user to sign in", async () => {
    const env = setup({ marker: NOW + 10_000, handler: () => unauthenticated() });
    const sends: number[] = [];
    const send = async () => {
      sends.push(1);
      return { status: 401 };
    };
    await expect(env.client.withSession("/api/media/assets", send)).rejects.toBeInstanceOf(ApiError);
    expect(sends).toHaveLength(1);
    expect(env.navigations).toEqual(["/signin?callbackUrl=%2Fapp%2Fcrafts%3Fpage%3D2"]);
  });
});

describe("envelopeResult", () => {
  it("unwraps a 2xx success, and turns a failure or a 2xx success=false into an ApiError", () => {
    expect(envelopeResult(200, { success: true, result: { id: 1 }, errorMessage: null, error: null })).toEqual({
      id: 1,
    });
    const failure = (() => {
      try {
        envelopeResult(200, { success: false, result: null, errorMessage: "No", error: { code: "NOT_FOUND" } });
      } catch (error) {
        return error as ApiError;
      }
    })();
    expect(failure).toMatchObject({ status: 400, code: "NOT_FOUND", message: "No" });
    expect(() => envelopeResult(401, null)).toThrow(expect.objectContaining({ status: 401, code: "UNAUTHENTICATED" }));
  });
});
