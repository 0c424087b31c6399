import { safeCallbackUrl } from "./guard";

/**
 * Where a visitor was going before they had to sign up (an invitation link, `/app/invite?token=…`),
 * kept across the sign-up, the verification link and the sign-in of this browser. Only a
 * same-site relative path (`safeCallbackUrl`) is ever stored or returned: no open redirect. Kept for
 * a day, the verification link's lifetime.
 */
export const RETURN_PATH_KEY = "crafter.returnPath";
export const RETURN_PATH_TTL_MS = 24 * 60 * 60 * 1000;

/** The part of `Storage` used here (localStorage in the browser). */
export type ReturnPathStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Remembers `path` when it is safe; a missing or unsafe one forgets any earlier path. */
export function rememberReturnPath(storage: ReturnPathStorage, path: string | null | undefined, now = Date.now()) {
  const safe = safeCallbackUrl(path);
  try {
    if (safe) storage.setItem(RETURN_PATH_KEY, JSON.stringify({ path: safe, at: now }));
    else storage.removeItem(RETURN_PATH_KEY);
  } catch {
    // Storage refused (private mode, quota): the visitor lands on /app instead.
  }
}

/** The remembered path, when it is still fresh and safe; else null. */
export function recallReturnPath(storage: ReturnPathStorage, now = Date.now()): string | null {
  try {
    const raw = storage.getItem(RETURN_PATH_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { path?: unknown; at?: unknown };
    if (typeof value.path !== "string" || typeof value.at !== "number") return null;
    if (now - value.at > RETURN_PATH_TTL_MS || value.at > now + 60_000) return null;
    return safeCallbackUrl(value.path);
  } catch {
    return null;
  }
}

export function forgetReturnPath(storage: ReturnPathStorage) {
  try {
    storage.removeItem(RETURN_PATH_KEY);
  } catch {
    // nothing to forget
  }
}

/** `page` with `?callbackUrl=` when there is a safe path to return to. */
export function withCallback(page: string, path: string | null | undefined): string {
  const safe = safeCallbackUrl(path);
  return safe ? `${page}?callbackUrl=${encodeURIComponent(safe)}` : page;
}

/** The browser's localStorage, or a no-op store where there is none. */
export function browserStorage(): ReturnPathStorage {
  try {
    if (typeof window !== "undefined" && window.localStorage) return window.localStorage;
  } catch {
    // access denied
  }
  return { getItem: () => null, setItem: () => {}, removeItem: () => {} };
}
