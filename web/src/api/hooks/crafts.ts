import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import { api, fetcher } from "../api";
import { type CraftListFilter, isCraftListKey, keys, type NewCraftQuery } from "../keys";
import { paths } from "../paths";
import type { Craft, CraftPage, CraftSummary, WorkflowHeaders } from "../types";

/** `GET /api/workflowsV2?page=&workflowName=&projectId=&favorites=`: one page of the user's crafts. */
export function useCrafts(page: number, pageSize?: number, filter: CraftListFilter = {}, enabled = true) {
  return useSWR<CraftPage>(enabled ? keys.crafts(page, pageSize, filter) : null, fetcher, { keepPreviousData: true });
}

/** `GET /api/workflowsV2/headers`: every workflow with its category and availability. */
export function useWorkflowHeaders() {
  return useSWR<WorkflowHeaders>(keys.workflowHeaders(), fetcher);
}

/** `GET /api/workflowsV2/{id}`. */
export function useCraft(craftId: string | null) {
  return useSWR<Craft>(craftId ? keys.craft(craftId) : null, fetcher);
}

/**
 * `GET /api/workflowsV2/new`: the craft a workflow would start as (prefilled, craftId ""), not
 * stored; null waits (e.g. for the active project).
 */
export function useNewCraft(query: NewCraftQuery | null) {
  return useSWR<Craft>(query ? keys.newCraft(query) : null, fetcher, { revalidateOnFocus: false });
}

export interface CreateCraftInput {
  workflowName: string;
  craftName?: string;
  projectId?: string;
  profileId?: string;
  /** Tools and smart documents: `POST /standalone`, a craft without a project. */
  standalone?: boolean;
}

/** `POST /api/workflowsV2` (or `/standalone`), seeding the new craft's cache entry. */
export function useCreateCraft() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async ({ standalone, ...input }: CreateCraftInput): Promise<Craft> => {
      const craft = standalone
        ? await api.post<Craft>(paths.standaloneCraft, { workflowName: input.workflowName, craftName: input.craftName })
        : await api.post<Craft>(paths.crafts, input);
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

/** `POST /api/workflowsV2/{id}/{stepName}/editStep`: reopens a completed step (a GET changes nothing). */
export function useEditStep(craftId: string) {
  return useCraftWrite(craftId, (stepName: string) => api.post<Craft>(paths.editStep(craftId, stepName), {}));
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

/** The body of `PUT /{id}/{stepName}/saveOrUpdateActionResult` (no resultId: a user-written result). */
export interface SaveActionResultInput {
  stepName: string;
  resultId?: string;
  content?: string;
  sections?: Record<string, string[]>;
  data?: unknown;
  selected?: boolean;
  delete?: boolean;
}

/** `PUT /{id}/{stepName}/saveOrUpdateActionResult`: edit, select or delete a result. */
export function useSaveActionResult(craftId: string) {
  return useCraftWrite(craftId, ({ stepName, ...body }: SaveActionResultInput) =>
    api.put<Craft>(paths.saveActionResult(craftId, stepName), body),
  );
}

/** Revalidates everything that shows credits (header, dashboard) after a generation. */
export function useRefreshCredits() {
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    void mutate(keys.initial());
    void mutate(keys.account());
  }, [mutate]);
}

/** `POST /{id}/{stepName}/generateInlineText` with `{ name, params }` → `{ text, meta }`. */
export function generateInlineText(craftId: string, stepName: string, name: string, params: Record<string, unknown>) {
  return api.post<{ text: string; meta: unknown }>(paths.generateInlineText(craftId, stepName), { name, params });
}

/** Favorite, clone and delete: the craft actions of pages and lists, each revalidating the lists. */
export function useCraftActions() {
  const { mutate } = useSWRConfig();
  const touchLists = useCallback(() => {
    void mutate(isCraftListKey);
    void mutate(keys.initial());
  }, [mutate]);
  const favorite = useCallback(
    async (craftId: string, next: boolean) => {
      const summary = await api.put<CraftSummary>(paths.favoriteCraft(craftId), { favorite: next });
      await mutate<Craft>(keys.craft(craftId), (craft) => (craft ? { ...craft, favorite: next } : craft), {
        revalidate: false,
      });
      touchLists();
      return summary;
    },
    [mutate, touchLists],
  );
  const clone = useCallback(
    async (craftId: string, craftName?: string) => {
      const craft = await api.post<Craft>(paths.cloneCraft(craftId), craftName ? { craftName } : {});
      await mutate(keys.craft(craft.craftId), craft, { revalidate: false });
      touchLists();
      return craft;
    },
    [mutate, touchLists],
  );
  const remove = useCallback(
    async (craftId: string) => {
      const result = await api.del<{ craftId: string }>(paths.craft(craftId));
      await mutate(keys.craft(craftId), undefined, { revalidate: false });
      touchLists();
      return result;
    },
    [mutate, touchLists],
  );
  return { favorite, clone, remove };
}
