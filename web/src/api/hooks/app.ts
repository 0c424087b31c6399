import { DEFAULT_SETTINGS, type UserSettings } from "@crafter/validation";
import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../api";
import { flagAllows } from "../flags";
import { keys } from "../keys";
import { paths } from "../paths";
import type { FeatureFlags, InitialState, UserInfo } from "../types";

/** `GET /api/app/initial`: userInfo, featureFlag, activeProjectInfo, userSettings. */
export function useInitial(enabled = true) {
  return useSWR<InitialState>(enabled ? keys.initial() : null, fetcher);
}

/** `GET /api/user/account`. */
export function useAccount() {
  return useSWR<UserInfo>(keys.account(), fetcher);
}

/** The user's settings with the spec's defaults filled in. */
export function useSettings(): UserSettings {
  const { data } = useInitial();
  return { ...DEFAULT_SETTINGS, ...(data?.userSettings?.settings ?? {}) };
}

/**
 * Saves a partial settings object with `PUT /api/userSettings/settings`, applying it to the
 * cached initial state at once and rolling back when the call fails.
 */
export function useUpdateSettings() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (patch: Partial<UserSettings>) => {
      const apply = (current: InitialState | undefined, settings: Partial<UserSettings>) =>
        current
          ? {
              ...current,
              userSettings: { settings: { ...current.userSettings?.settings, ...settings } as UserSettings },
            }
          : current;
      await mutate<InitialState>(
        keys.initial(),
        async (current) => {
          const saved = await api.put<{ settings: UserSettings }>(paths.settings, patch);
          return apply(current, saved.settings);
        },
        {
          optimisticData: (current) => apply(current, patch) as InitialState,
          rollbackOnError: true,
          populateCache: true,
          revalidate: false,
        },
      );
    },
    [mutate],
  );
}

/** Whether `flag` is on for the user (`flagAllows` over the initial state's flags). */
export function useFeature(flag: string): boolean {
  const { data } = useInitial();
  return flagAllows(flag, data?.featureFlag);
}

/**
 * The user's flags from `GET /api/flags/user` (spec section 7), with the initial state's copy until
 * that answers.
 */
export function useFlags(): FeatureFlags | null {
  const { data: initial } = useInitial();
  const { data } = useSWR<FeatureFlags>(initial ? keys.flags() : null, fetcher);
  return data ?? initial?.featureFlag ?? null;
}
