import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, Page, ResultOf, Schema } from "../contract";

/**
 * Lead capture: the project's lead form and lead assistant with what they collected, and the
 * public pages a visitor or a contact opens (the form, double opt-in confirmation, preferences),
 * typed by the gateway's OpenAPI document. Keys are the URLs they are read from (`apiKey`).
 */

export type LeadForm = Schema<"LeadForm">;
/** A form field: a contact field (`firstName`, `email`…) or a custom field (`custom.<key>`). */
export type LeadFormField = LeadForm["fields"][number];
/** What a visitor's form page gets: the form and its business, without its owner. */
export type PublicLeadForm = Schema<"PublicLeadForm">;
/** The business a public lead page shows: its profile's name and logo ("" when unknown). */
export type PublicBrand = Schema<"PublicBrand">;
export type LeadSubmission = ResultOf<"/api/leads/submissions", "get">["result"][number];
export type LeadAssistant = Schema<"LeadAssistant">;
/** The tones the assistant speaks in (@crafter/validation's ASSISTANT_TONES). */
export type AssistantTone = NonNullable<BodyOf<"/api/leads/assistant", "put">["tone"]>;
export type AssistantSession = Schema<"AssistantSession">;
export type ContactPreferences = Schema<"ContactPreferences">;

export const SUBMISSIONS_PAGE_SIZE = 20;

export const leadKeys = {
  form: () => apiKey("/api/leads/form"),
  submissions: (page: number) => apiKey("/api/leads/submissions", { query: { page, pageSize: SUBMISSIONS_PAGE_SIZE } }),
  assistant: () => apiKey("/api/leads/assistant"),
  sessions: (page: number) => apiKey("/api/leads/assistant/sessions", { query: { page } }),
  session: (id: string) => apiKey("/api/leads/assistant/sessions/{id}", { path: { id } }),
  publicForm: (formId: string) => apiKey("/api/public/forms/{formId}", { path: { formId } }),
  preferences: (token: string) => apiKey("/api/public/preferences/{token}", { path: { token } }),
};

export function useLeadForm() {
  return useSWR<LeadForm>(leadKeys.form(), fetcher);
}

/**
 * Saves the form. A field's type is a string in the form as read; the gateway takes only its
 * field types and refuses another with a 400 naming the field.
 */
export function saveLeadForm(form: Pick<LeadForm, "title" | "fields" | "consentText" | "thankYouMessage">) {
  return http.put("/api/leads/form", { body: { ...form, doubleOptIn: true } as BodyOf<"/api/leads/form", "put"> });
}

export function useLeadSubmissions(page: number) {
  return useSWR<Page<LeadSubmission>>(leadKeys.submissions(page), fetcher, { keepPreviousData: true });
}

export function useLeadAssistant() {
  return useSWR<LeadAssistant>(leadKeys.assistant(), fetcher);
}

export function saveLeadAssistant(body: BodyOf<"/api/leads/assistant", "put">) {
  return http.put("/api/leads/assistant", { body });
}

export function useAssistantSessions(page: number) {
  return useSWR<Page<AssistantSession>>(leadKeys.sessions(page), fetcher, { keepPreviousData: true });
}

/** One conversation with its messages. */
export function useAssistantSession(id: string) {
  return useSWR<AssistantSession>(leadKeys.session(id), fetcher);
}

/** The public form a visitor fills in (no session). */
export function usePublicLeadForm(formId: string) {
  return useSWR<PublicLeadForm>(leadKeys.publicForm(formId), fetcher);
}

/** A visitor's submission; `website` is the honeypot field a person leaves empty. */
export function submitLeadForm(formId: string, body: BodyOf<"/api/public/forms/{formId}/submissions", "post">) {
  return http.post("/api/public/forms/{formId}/submissions", { path: { formId }, body });
}

/** Follows a double opt-in link: the contact's consent becomes subscribed. */
export function confirmConsent(token: string) {
  return http.post("/api/public/consent/confirm", { body: { token } });
}

/** The preference centre of an email's signed link (no account). */
export function usePreferences(token: string) {
  return useSWR<ContactPreferences>(leadKeys.preferences(token), fetcher);
}

export function savePreferences(token: string, consent: "subscribed" | "unsubscribed") {
  return http.put("/api/public/preferences/{token}", { path: { token }, body: { consent } });
}
