import useSWR from "swr";
import { api, fetcher } from "./api";
import type { Page, ResultOf, Schema } from "./contract";

/**
 * The email REST routes of docs/email-contract.md as the web uses them: templates and the MJML
 * render, campaigns, segments (contacts'). Answers are typed by the gateway's OpenAPI document.
 */

export type EmailTemplate = Schema<"EmailTemplate">;
export type TemplateKind = EmailTemplate["kind"];
export type TemplateScope = EmailTemplate["scope"];
export type { Page as Paged } from "./contract";
export type PageMeta = Page<unknown>["meta"];
export type RenderResult = ResultOf<"/api/email/render", "post">;

export const emailKeys = {
  templates: (kind: TemplateKind, scope: TemplateScope, page = 1) =>
    `/api/email/templates?kind=${kind}&scope=${scope}&page=${page}&pageSize=24`,
  template: (id: string) => `/api/email/templates/${encodeURIComponent(id)}`,
  campaigns: (page = 1, status = "", approval = "") =>
    `/api/email/campaigns?page=${page}&pageSize=20${status ? `&status=${encodeURIComponent(status)}` : ""}${approval ? `&approval=${encodeURIComponent(approval)}` : ""}`,
  campaign: (id: string) => `/api/email/campaigns/${encodeURIComponent(id)}`,
  recipients: (id: string, page = 1) =>
    `/api/email/campaigns/${encodeURIComponent(id)}/recipients?page=${page}&pageSize=20`,
  segments: "/api/segments",
};

/** SWR keys that are template lists (to revalidate after a save or delete). */
export function isTemplateListKey(key: unknown): boolean {
  return typeof key === "string" && key.startsWith("/api/email/templates?");
}

export function useTemplates(kind: TemplateKind, scope: TemplateScope, page = 1, enabled = true) {
  return useSWR<Page<EmailTemplate>>(enabled ? emailKeys.templates(kind, scope, page) : null, fetcher);
}

export function useTemplate(id: string | undefined) {
  return useSWR<EmailTemplate>(id ? emailKeys.template(id) : null, fetcher);
}

export function createTemplate(body: { kind: TemplateKind; name: string; mjml: string; subject?: string }) {
  return api.post<EmailTemplate>("/api/email/templates", body);
}

export function updateTemplate(id: string, body: { name?: string; mjml?: string; subject?: string }) {
  return api.put<EmailTemplate>(emailKeys.template(id), body);
}

export function deleteTemplate(id: string) {
  return api.del<unknown>(emailKeys.template(id));
}

export function renderMjml(mjml: string, values?: Record<string, string>, signal?: AbortSignal) {
  return api.post<RenderResult>("/api/email/render", values ? { mjml, values } : { mjml }, { signal });
}

// Campaigns (email-api builds the backend, the contract fixes the shapes).

export type Campaign = Schema<"Campaign">;
export type CampaignStatus = Campaign["status"];
export type CampaignStats = Campaign["stats"];
export type AbTest = NonNullable<Campaign["abTest"]>;
/** GET /api/email/campaigns/:id/preview: the email as one contact gets it, and who gets it. */
export type CampaignPreview = ResultOf<"/api/email/campaigns/{id}/preview", "get">;
/** A contact a preview is rendered for. */
export type PreviewContact = CampaignPreview["choices"][number];

export const campaignPreviewKey = (id: string, contactId = "") =>
  `/api/email/campaigns/${encodeURIComponent(id)}/preview${contactId ? `?contactId=${encodeURIComponent(contactId)}` : ""}`;

/** The campaign's preview for one contact (the first recipient when `contactId` is ""). */
export function useCampaignPreview(id: string | undefined, contactId: string) {
  return useSWR<CampaignPreview>(id ? campaignPreviewKey(id, contactId) : null, fetcher);
}

export interface CampaignInput {
  name: string;
  segmentId: string;
  templateId?: string;
  craftId?: string;
  subject: string;
  preheader: string;
  abTest?: Omit<AbTest, "winner">;
  sendTimeBy?: SendTimeBy;
}

/** Whose wall clock a scheduled campaign's time is read on. */
export type SendTimeBy = "business" | "contact";

export type Recipient = Schema<"CampaignRecipient">;

/** A segment as the campaign form lists it. */
export type Segment = Pick<Schema<"Segment">, "id" | "name">;

export function isCampaignKey(key: unknown): boolean {
  return typeof key === "string" && key.startsWith("/api/email/campaigns");
}

export function useCampaigns(page: number, status = "", approval = "") {
  return useSWR<Page<Campaign>>(emailKeys.campaigns(page, status, approval), fetcher);
}

export function useCampaign(id: string | undefined) {
  return useSWR<Campaign>(id ? emailKeys.campaign(id) : null, fetcher, {
    // A campaign that is going out changes by the second; one at each contact's local time by the zone.
    refreshInterval: (data) => (data?.status !== "sending" ? 0 : data.sendTimeBy === "contact" ? 15_000 : 3000),
  });
}

export function useRecipients(id: string, page: number) {
  return useSWR<Page<Recipient>>(emailKeys.recipients(id, page), fetcher);
}

export function useSegments() {
  // The contacts API answers the active project's segments as a plain list.
  return useSWR<(Segment | null)[]>(emailKeys.segments, fetcher);
}

export const campaignApi = {
  create: (input: CampaignInput) => api.post<Campaign>("/api/email/campaigns", input),
  update: (id: string, input: Partial<CampaignInput>) => api.put<Campaign>(emailKeys.campaign(id), input),
  remove: (id: string) => api.del<unknown>(emailKeys.campaign(id)),
  send: (id: string) => api.post<Campaign>(`${emailKeys.campaign(id)}/send`),
  schedule: (id: string, at: string) => api.post<Campaign>(`${emailKeys.campaign(id)}/schedule`, { at }),
  /** Schedules at a wall-clock time ("YYYY-MM-DDTHH:mm") in the business's time zone. */
  scheduleLocal: (id: string, localTime: string) =>
    api.post<Campaign>(`${emailKeys.campaign(id)}/schedule`, { localTime }),
  pause: (id: string) => api.post<Campaign>(`${emailKeys.campaign(id)}/pause`),
  resume: (id: string) => api.post<Campaign>(`${emailKeys.campaign(id)}/resume`),
  test: (id: string, email: string) => api.post<unknown>(`${emailKeys.campaign(id)}/test`, { email }),
  preview: (id: string, contactId = "") => api.get<CampaignPreview>(campaignPreviewKey(id, contactId)),
};
