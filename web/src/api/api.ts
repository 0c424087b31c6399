import { createApiClient, type StorageLike } from "./client";

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
