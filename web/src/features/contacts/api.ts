import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../../api/api";
import type {
  BulkAction,
  ConsentAsk,
  ConsentAskPreview,
  ConsentAskTarget,
  ConsentCounts,
  Contact,
  ContactDetail,
  ContactImport,
  ContactInput,
  ContactListQuery,
  CustomField,
  ImportCheck,
  Interaction,
  KeyLabel,
  Paged,
  Segment,
  SegmentPreview,
  SegmentQuery,
} from "./types";

/**
 * SWR keys and calls of the contract's "Contacts REST" section. Every key is the gateway path it
 * is read from, so the shared fetcher serves them and writes revalidate by prefix.
 */

export const CONTACTS_PAGE_SIZE = 20;

/** The query string of a contact list (also the CSV export's and a bulk action's filter). */
export function contactListParams(query: ContactListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.page) params.set("page", String(query.page));
  if (query.pageSize) params.set("pageSize", String(query.pageSize));
  if (query.sort) {
    params.set("sort", query.sort);
    params.set("order", query.order ?? "asc");
  }
  if (query.q?.trim()) params.set("q", query.q.trim());
  if (query.tags?.length) params.set("tags", query.tags.join(","));
  for (const key of ["consent", "contactType", "customerKind", "segmentId"] as const) {
    if (query[key]) params.set(key, query[key] as string);
  }
  return params;
}

const enc = encodeURIComponent;

export const contactKeys = {
  list: (query: ContactListQuery) => `/api/contacts?${contactListParams(query).toString()}`,
  contact: (id: string) => `/api/contacts/${enc(id)}`,
  interactions: (id: string, page = 1) => `/api/contacts/${enc(id)}/interactions?page=${page}&pageSize=50`,
  customFields: () => "/api/contacts/settings/custom-fields",
  interactionTypes: () => "/api/contacts/settings/interaction-types",
  contactTypes: () => "/api/contacts/settings/contact-types",
  imports: () => "/api/contacts/imports",
  import: (id: string) => `/api/contacts/imports/${enc(id)}`,
  importErrors: (id: string) => `/api/contacts/imports/${enc(id)}/errors.csv`,
  exportCsv: (query: ContactListQuery) => {
    const { page: _p, pageSize: _s, ...filter } = query;
    return `/api/contacts/export.csv?${contactListParams(filter).toString()}`;
  },
  exportJson: (id: string) => `/api/contacts/${enc(id)}/export`,
  segments: () => "/api/segments",
  segmentsWithCounts: () => "/api/segments?counts=true",
  consentAsk: (id: string) => `/api/contacts/consent-requests/${enc(id)}`,
  segment: (id: string) => `/api/segments/${enc(id)}`,
};

export const isContactListKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/contacts?");

export function useContacts(query: ContactListQuery) {
  return useSWR<Paged<Contact> & { meta: { consent?: ConsentCounts } }>(contactKeys.list(query), fetcher, {
    keepPreviousData: true,
  });
}

export function useContact(id: string | undefined) {
  return useSWR<ContactDetail>(id ? contactKeys.contact(id) : null, fetcher);
}

export function useInteractions(id: string | undefined) {
  return useSWR<Paged<Interaction>>(id ? contactKeys.interactions(id) : null, fetcher);
}

export function useCustomFields() {
  return useSWR<CustomField[]>(contactKeys.customFields(), fetcher);
}

export function useInteractionTypes() {
  return useSWR<KeyLabel[]>(contactKeys.interactionTypes(), fetcher);
}

export function useContactTypes() {
  return useSWR<KeyLabel[]>(contactKeys.contactTypes(), fetcher);
}

/** The saved segments; `withCounts`: each with its contacts by consent (one request for the whole list). */
export function useSegments(withCounts = false) {
  return useSWR<Segment[] | Paged<Segment>>(
    withCounts ? contactKeys.segmentsWithCounts() : contactKeys.segments(),
    fetcher,
  );
}

/** What "Ask for permission" would do now (nothing is sent). */
export function previewConsentAsk(target: ConsentAskTarget, signal?: AbortSignal) {
  return api.post<ConsentAskPreview>("/api/contacts/consent-requests/preview", target, { signal });
}

/** Starts "Ask for permission"; the emails go in the background (poll with useConsentAsk). */
export function startConsentAsk(target: ConsentAskTarget) {
  return api.post<ConsentAsk>("/api/contacts/consent-requests", target);
}

/** A started request, polled every second until it is done. */
export function useConsentAsk(id: string | undefined) {
  return useSWR<ConsentAsk>(id ? contactKeys.consentAsk(id) : null, fetcher, {
    refreshInterval: (data) => (data && !data.done ? 1000 : 0),
  });
}

/** A list endpoint may answer a bare array or the paged shape; pages read both. */
export function itemsOf<T>(data: Array<T | null> | Paged<T | null> | undefined): T[] {
  if (!data) return [];
  return (Array.isArray(data) ? data : data.result).filter((item): item is T => item !== null && item !== undefined);
}

export function useSegment(id: string | undefined) {
  return useSWR<Segment>(id ? contactKeys.segment(id) : null, fetcher);
}

/** Polls an import every second while the service works on it (the bar survives a reload: the id is in the URL). */
export function useImport(id: string | undefined) {
  return useSWR<ContactImport>(id ? contactKeys.import(id) : null, fetcher, {
    refreshInterval: (data) => (data && (data.processing || data.status === "processing") ? 1000 : 0),
  });
}

export function useContactWrites() {
  const { mutate } = useSWRConfig();
  const touchLists = () => void mutate(isContactListKey);
  return {
    create: async (input: ContactInput) => {
      const contact = await api.post<Contact>("/api/contacts", input);
      touchLists();
      return contact;
    },
    update: async (id: string, patch: Partial<ContactInput>) => {
      const contact = await api.request<ContactDetail>("PATCH", contactKeys.contact(id), { body: patch });
      await mutate(contactKeys.contact(id));
      touchLists();
      return contact;
    },
    remove: async (id: string) => {
      await api.del(contactKeys.contact(id));
      await mutate(contactKeys.contact(id), undefined, { revalidate: false });
      touchLists();
    },
    bulk: async (input: {
      ids?: string[];
      filter?: ContactListQuery;
      action: BulkAction;
      tags?: string[];
      segmentId?: string;
    }) => {
      const result = await api.post<{ affected: number }>("/api/contacts/bulk", input);
      touchLists();
      return result;
    },
    addInteraction: async (id: string, input: Interaction) => {
      const created = await api.post<Interaction>(`/api/contacts/${enc(id)}/interactions`, input);
      await mutate(contactKeys.interactions(id));
      return created;
    },
  };
}

export async function saveSettingsList<T>(key: string, items: T[]): Promise<T[]> {
  return api.put<T[]>(key, items);
}

/** `POST /api/contacts/imports` with the raw file (`text/csv`); `name` tells the service the file's name. */
export function startImport(file: File): Promise<ContactImport> {
  const body = file.type === "text/csv" ? file : new Blob([file], { type: "text/csv" });
  return api.post<ContactImport>(`${contactKeys.imports()}?name=${enc(file.name)}`, body);
}

export function runImport(id: string, mapping: unknown, duplicates: "update" | "skip", inFile: "first" | "last") {
  return api.put<ContactImport>(contactKeys.import(id), { mapping, duplicates, inFile });
}

/** What the import would do with `mapping`, before it runs (nothing is written). */
export function checkImport(id: string, mapping: unknown, signal?: AbortSignal) {
  return api.post<ImportCheck>(`${contactKeys.import(id)}/check`, { mapping }, { signal });
}

export function previewSegment(query: SegmentQuery, signal?: AbortSignal) {
  return api.post<SegmentPreview>("/api/segments/preview", { query }, { signal });
}

export function saveSegment(id: string | undefined, input: { name: string; query: SegmentQuery }) {
  return id ? api.put<Segment>(contactKeys.segment(id), input) : api.post<Segment>(contactKeys.segments(), input);
}

export function deleteSegment(id: string) {
  return api.del(contactKeys.segment(id));
}

/**
 * Downloads a file the gateway answers without the envelope (CSV, JSON export) with the session's
 * cookies, refreshing the session first when its marker has passed.
 */
export async function download(path: string, filename: string): Promise<void> {
  await api.ensureFresh();
  const response = await window.fetch(path, { credentials: "include", cache: "no-store" });
  if (!response.ok) {
    let message = `Download failed (${response.status})`;
    try {
      const body = (await response.json()) as { errorMessage?: string };
      if (body.errorMessage) message = body.errorMessage;
    } catch {
      // not JSON: keep the status message
    }
    throw new Error(message);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
