import type { ProfileTypeName } from "@crafter/validation";
import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../api";
import type { Schema } from "../contract";
import { keys } from "../keys";
import { paths } from "../paths";
import type { CraftSummary, Profile } from "../types";

/**
 * `GET /api/profiles?profileType=`: the active project's profiles of one type (all without one).
 * `enabled` false asks nothing (a user with no active project, whom the gateway answers 400);
 * `refreshMs` reads them again that often (profiles a connected store keeps in sync).
 */
export function useProfiles(profileType?: ProfileTypeName, enabled = true, refreshMs = 0) {
  return useSWR<{ profiles: Profile[] }>(enabled ? keys.profiles(profileType) : null, fetcher, {
    refreshInterval: refreshMs,
  });
}

/** `GET /api/profiles/{id}`. */
export function useProfile(profileId: string | null | undefined) {
  return useSWR<Profile>(profileId ? keys.profile(profileId) : null, fetcher);
}

/** `GET /api/profiles/{id}/crafts`: the crafts written for a profile, newest first. */
export function useProfileCrafts(profileId: string | null | undefined) {
  return useSWR<{ crafts: CraftSummary[] }>(profileId ? keys.profileCrafts(profileId) : null, fetcher);
}

const isProfileKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/profiles");

/**
 * Writes to profiles, each revalidating every profile list and profile (and the initial state,
 * which carries the business profile).
 */
export function useProfileWrites() {
  const { mutate } = useSWRConfig();
  const refresh = useCallback(async () => {
    await Promise.all([mutate(isProfileKey), mutate(keys.initial())]);
  }, [mutate]);
  const create = useCallback(
    async (profileType: ProfileTypeName, values: Record<string, unknown>, projectId?: string) => {
      const created = await api.post<Profile>(paths.profiles, { profileType, values, projectId });
      await refresh();
      return created;
    },
    [refresh],
  );
  const update = useCallback(
    async (profileId: string, patch: { values?: Record<string, unknown>; sections?: Record<string, unknown> }) => {
      const updated = await api.request<Profile>("PATCH", paths.profile(profileId), { body: patch });
      await refresh();
      return updated;
    },
    [refresh],
  );
  const remove = useCallback(
    async (profileId: string) => {
      await api.del(paths.profile(profileId));
      await refresh();
    },
    [refresh],
  );
  return { create, update, remove };
}

/** A review as `GET /api/business/reviews` answers it (source manual, csv or google). */
export type Review = Schema<"Review">;

export interface ReviewPage {
  result: Review[];
  meta: { count: number; currentPage: number; totalPages: number };
}

/** `GET /api/business/reviews`: the active project's reviews, newest first. */
export function useReviews(page: number, pageSize = 10) {
  return useSWR<ReviewPage>(keys.reviews(page, pageSize), fetcher);
}

const isReviewKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/business/reviews");

/** Writes to reviews, each revalidating every page of the list. */
export function useReviewWrites() {
  const { mutate } = useSWRConfig();
  const refresh = useCallback(() => mutate(isReviewKey), [mutate]);
  return {
    create: useCallback(
      async (review: { author: string; rating: number; text: string; reviewedOn?: string }) => {
        const created = await api.post<Review>(paths.reviews, review);
        await refresh();
        return created;
      },
      [refresh],
    ),
    importCsv: useCallback(
      async (csv: string) => {
        const outcome = await api.post<{
          created: number;
          skipped: number;
          errors: { line: number; reason: string }[];
        }>(paths.importReviews, { csv });
        await refresh();
        return outcome;
      },
      [refresh],
    ),
    reply: useCallback(
      async (reviewId: string, reply: string) => {
        const saved = await api.put<Review>(paths.reviewReply(reviewId), { reply });
        await refresh();
        return saved;
      },
      [refresh],
    ),
    remove: useCallback(
      async (reviewId: string) => {
        await api.del(paths.review(reviewId));
        await refresh();
      },
      [refresh],
    ),
  };
}
