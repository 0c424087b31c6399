import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../../api/api";
import { loadAllPages } from "./email-choices";
import type { Automation, AutomationRun, AutomationTemplate, Paged, Step, Trigger } from "./types";

/** SWR keys (the gateway paths they are read from) and calls of /api/automations. */

const enc = encodeURIComponent;

export const automationKeys = {
  list: (page = 1) => `/api/automations?page=${page}&pageSize=20`,
  one: (id: string) => `/api/automations/${enc(id)}`,
  runs: (id: string, page = 1) => `/api/automations/${enc(id)}/runs?page=${page}&pageSize=20`,
  contactRuns: (contactId: string, page = 1) =>
    `/api/contacts/${enc(contactId)}/automation-runs?page=${page}&pageSize=20`,
  templates: () => "/api/automations/templates",
};

const isAutomationKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/automations");

export function useAutomations(page: number) {
  return useSWR<Paged<Automation>>(automationKeys.list(page), fetcher, { keepPreviousData: true });
}

type Named = { id: string; name: string };

/**
 * Every campaign and automation of the project, all pages read (100 a page), for the trigger's
 * "Which email" chooser; read only while `enabled`. Revalidated with the other automation keys.
 */
export function useEmailChoices(enabled: boolean) {
  return useSWR<{ campaigns: Named[]; automations: Named[] }>(
    enabled ? "/api/automations#email-choices" : null,
    async () => {
      const [campaigns, automations] = await Promise.all([
        loadAllPages((n) => fetcher<Paged<Named>>(`/api/email/campaigns?page=${n}&pageSize=100`)),
        loadAllPages((n) => fetcher<Paged<Named>>(`/api/automations?page=${n}&pageSize=100`)),
      ]);
      return { campaigns, automations };
    },
  );
}

export function useAutomation(id: string | undefined) {
  return useSWR<Automation>(id ? automationKeys.one(id) : null, fetcher);
}

/** Polls every 3 s while a run of the automation is under way. */
export function useAutomationRuns(id: string | undefined, page: number) {
  return useSWR<Paged<AutomationRun>>(id ? automationKeys.runs(id, page) : null, fetcher, {
    refreshInterval: (data) => (data?.result.some((r) => r.status === "running") ? 3000 : 0),
  });
}

export function useContactRuns(contactId: string | undefined) {
  return useSWR<Paged<AutomationRun>>(contactId ? automationKeys.contactRuns(contactId) : null, fetcher);
}

export function useAutomationTemplates() {
  return useSWR<AutomationTemplate[]>(automationKeys.templates(), fetcher);
}

export interface AutomationInput {
  name: string;
  trigger: Trigger;
  steps: Step[];
}

/** The writes; each revalidates every automation key. */
export function useAutomationWrites() {
  const { mutate } = useSWRConfig();
  const touch = () => mutate(isAutomationKey);
  return {
    create: async (input: AutomationInput) => {
      const created = await api.post<Automation>("/api/automations", input);
      await touch();
      return created;
    },
    fromTemplate: async (templateId: string) => {
      const created = await api.post<Automation>("/api/automations/from-template", { templateId });
      await touch();
      return created;
    },
    update: async (id: string, input: AutomationInput) => {
      const updated = await api.put<Automation>(automationKeys.one(id), input);
      await touch();
      return updated;
    },
    setActive: async (id: string, active: boolean) => {
      const updated = await api.post<Automation>(`${automationKeys.one(id)}/${active ? "activate" : "pause"}`);
      await touch();
      return updated;
    },
    remove: async (id: string) => {
      await api.del(automationKeys.one(id));
      await touch();
    },
  };
}
