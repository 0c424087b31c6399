/** Lead form and lead assistant shapes of the contract's "Contacts REST" section. */

export type LeadFieldType = "text" | "email" | "phone" | "textarea" | "number" | "date" | "select" | "checkbox";

export interface LeadFormField {
  /** A contact field (`firstName`, `email`…) or a custom field (`custom.<key>`). */
  key: string;
  label: string;
  type: LeadFieldType | string;
  required: boolean;
  options?: string[];
}

export interface LeadForm {
  id: string;
  title: string;
  fields: LeadFormField[];
  consentText: string;
  thankYouMessage: string;
  doubleOptIn: true;
}

/** The business a public lead page shows: its profile's name and logo ("" when unknown). */
export interface PublicBrand {
  name: string;
  /** An http(s) URL or a `/media/…` path; "" when none. */
  logoUrl: string;
}

/** What `GET /api/public/forms/:formId` gives a visitor (the form and its business, without its owner). */
export type PublicLeadForm = Omit<LeadForm, "doubleOptIn"> & { doubleOptIn?: boolean; business?: PublicBrand };

export interface LeadSubmission {
  id: string;
  email?: string;
  values?: Record<string, unknown>;
  contactId?: string;
  createdAt?: string;
  status?: string;
}

export interface LeadAssistant {
  id: string;
  greeting: string;
  questions: string[];
  tone: string;
  enabled: boolean;
}

export interface AssistantMessage {
  role: "visitor" | "assistant" | "user" | string;
  content: string;
  at?: string;
}

export interface AssistantSession {
  id: string;
  startedAt?: string;
  updatedAt?: string;
  createdAt?: string;
  lead?: { name?: string; email?: string; contactId?: string } | null;
  messageCount?: number;
  messages?: AssistantMessage[];
}
