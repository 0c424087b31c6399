import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import { api, fetcher } from "../api";
import { isCraftListKey, keys } from "../keys";
import { paths } from "../paths";
import type { Craft, CraftPage } from "../types";

/** `GET /api/workflowsV2?page=`: one page of the user's crafts. */
export function useCrafts(page: number, pageSize?: number) {
  return useSWR<CraftPage>(keys.crafts(page, pageSize), fetcher, { keepPreviousData: true });
}

/** `GET /api/workflowsV2/{id}`. */
export function useCraft(craftId: string | null) {
  return useSWR<Craft>(craftId ? keys.craft(craftId) : null, fetcher);
}

export interface CreateCraftInput {
  workflowName: string;
  craftName?: string;
  projectId?: string;
  profileId?: string;
}

/** `POST /api/workflowsV2`, seeding the new craft's cache entry. */
export function useCreateCraft() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: CreateCraftInput): Promise<Craft> => {
      const craft = await api.post<Craft>(paths.crafts, input);
      await mutate(keys.craft(craft.craftId), craft, { revalidate: false });
      void mutate(isCraftListKey);
      void mutate(keys.initial());
      return craft;
    },
    [mutate],
  );
}

function useCraftWrite<Arg>(craftId: string, call: (arg: Arg) => Promise<Craft>) {
  const { mutate } = useSWRConfig();
  return useSWRMutation(keys.craft(craftId), (_key: string, { arg }: { arg: Arg }) => call(arg), {
    populateCache: true,
    revalidate: false,
    throwOnError: true,
    onSuccess: () => {
      void mutate(isCraftListKey);
      void mutate(keys.initial());
    },
  });
}

/** `PUT /api/workflowsV2/{id}`: saves a step's values without completing it. */
export function useSaveCraft(craftId: string) {
  return useCraftWrite(craftId, (arg: { stepName: string; values: Record<string, unknown> }) =>
    api.put<Craft>(paths.craft(craftId), arg),
  );
}

/** `GET /api/workflowsV2/{id}/{stepName}/editStep`: reopens a completed step. */
export function useEditStep(craftId: string) {
  return useCraftWrite(craftId, (stepName: string) => api.get<Craft>(paths.editStep(craftId, stepName)));
}

/** `PUT /api/workflowsV2/{id}/name`. */
export function useRenameCraft(craftId: string) {
  return useCraftWrite(craftId, (name: string) => api.put<Craft>(paths.renameCraft(craftId), { name }));
}

/**
 * Updates a craft after a streamed step completes: with the craft the stream sent when there is
 * one, else by refetching it; the lists that show it revalidate.
 */
export function useRefreshCraft() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (craftId: string, latest?: Craft | null) => {
      const craft = latest
        ? await mutate<Craft>(keys.craft(craftId), latest, { revalidate: false })
        : await mutate<Craft>(keys.craft(craftId));
      void mutate(isCraftListKey);
      void mutate(keys.initial());
      return craft;
    },
    [mutate],
  );
}
