import { useCallback, useSyncExternalStore } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../api";
import { isApiError } from "../errors";
import { keys } from "../keys";
import { paths } from "../paths";
import type { AuthUser, SessionResult, SessionStatus } from "../types";

/** True while the expiry marker exists (re-renders when it is set or cleared). */
export function useHasSession(): boolean {
  return useSyncExternalStore(api.subscribe, api.hasSession, () => false);
}

export interface SessionState {
  status: SessionStatus | "loading" | "error";
  user: AuthUser | null;
  error: unknown;
  retry: () => void;
}

/**
 * The session of spec section 4, from `GET /auth/check`, which is called only when an expiry
 * marker exists; without one the visitor is not logged in.
 */
export function useSession(): SessionState {
  const hasSession = useHasSession();
  const { data, error, mutate } = useSWR<SessionResult>(hasSession ? keys.session() : null, fetcher);
  const retry = useCallback(() => void mutate(), [mutate]);
  if (!hasSession) return { status: "anonymous", user: null, error: null, retry };
  if (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) {
      return { status: "anonymous", user: null, error, retry };
    }
    return { status: "error", user: null, error, retry };
  }
  if (!data) return { status: "loading", user: null, error: null, retry };
  return { status: data.user.email_verified ? "verified" : "unverified", user: data.user, error: null, retry };
}

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignUpInput {
  email: string;
  password: string;
  displayName?: string;
  /** The `ref` of a referral link (`/signup?ref=<code>`). */
  ref?: string;
}

/** Sign-in, sign-up, sign-out and the password calls. */
export function useAuthActions() {
  const { mutate } = useSWRConfig();

  const signIn = useCallback(
    async (input: SignInInput): Promise<AuthUser> => {
      const result = await api.post<SessionResult>(paths.signin, input);
      await mutate(keys.session(), { user: result.user }, { revalidate: false });
      api.markSignedIn();
      api.startRefreshTimer();
      return result.user;
    },
    [mutate],
  );

  const signOut = useCallback(async () => {
    try {
      await api.post(paths.signout, {});
    } catch {
      // The cookies may already be gone; the local session ends either way.
    }
    api.clearSession();
    await mutate(() => true, undefined, { revalidate: false });
  }, [mutate]);

  return {
    signIn,
    signOut,
    signUp: (input: SignUpInput) => api.post<{ message: string }>(paths.signup, input),
    verify: (token: string) => api.post<{ email: string }>(paths.verify, { token }),
    forgotPassword: (email: string) => api.post<{ message: string }>(paths.forgotPassword, { email }),
    resetPassword: (token: string, password: string) => api.post<object>(paths.resetPassword, { token, password }),
  };
}
