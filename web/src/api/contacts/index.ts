import useSWR, { useSWRConfig } from "swr";
import { api, apiKey, fetcher, http } from "../api";
import type { BodyOf, Page, ResultOf } from "../contract";
import type {
  BulkAction,
  ConsentAskTarget,
  ContactInput,
  ContactListQuery,
  CustomField,
  KeyLabel,
  SegmentQuery,
} from "./types";

/**
 * SWR keys and calls of the contract's "Contacts REST" section, typed by the gateway's OpenAPI
 * document (@crafter/client's generated types). Every key is the gateway URL it is read from (`apiKey`), so the shared
 * fetcher serves them and writes revalidate by prefix.
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

/**
 * A body the web builds as its own interfaces (the query-builder tree) where the document says
 * "any JSON object": TypeScript does not see an interface as an index signature, the JSON is the same.
 */
function jsonBody<T>(value: object): NonNullable<T> {
  return value as NonNullable<T>;
}

export const contactKeys = {
  list: (query: ContactListQuery) => `${apiKey("/api/contacts")}?${contactListParams(query).toString()}`,
  contact: (id: string) => apiKey("/api/contacts/{id}", { path: { id } }),
  interactions: (id: string, page = 1) =>
    apiKey("/api/contacts/{id}/interactions", { path: { id }, query: { page, pageSize: 50 } }),
  customFields: () => apiKey("/api/contacts/settings/custom-fields"),
  interactionTypes: () => apiKey("/api/contacts/settings/interaction-types"),
  contactTypes: () => apiKey("/api/contacts/settings/contact-types"),
  imports: () => apiKey("/api/contacts/imports"),
  import: (id: string) => apiKey("/api/contacts/imports/{id}", { path: { id } }),
  importErrors: (id: string) => apiKey("/api/contacts/imports/{id}/errors.csv", { path: { id } }),
  exportCsv: (query: ContactListQuery) => {
    const { page: _p, pageSize: _s, ...filter } = query;
    return `${apiKey("/api/contacts/export.csv")}?${contactListParams(filter).toString()}`;
  },
  exportJson: (id: string) => apiKey("/api/contacts/{id}/export", { path: { id } }),
  segments: () => apiKey("/api/segments"),
  segmentsWithCounts: () => apiKey("/api/segments", { query: { counts: "true" } }),
  consentAsk: (id: string) => apiKey("/api/contacts/consent-requests/{id}", { path: { id } }),
  segment: (id: string) => apiKey("/api/segments/{id}", { path: { id } }),
};

const CONTACT_LIST = `${apiKey("/api/contacts")}?`;
export const isContactListKey = (key: unknown) => typeof key === "string" && key.startsWith(CONTACT_LIST);
/** Every read of segments: the lists (with and without counts) and each segment. */
export const isSegmentKey = (key: unknown) => typeof key === "string" && key.startsWith(apiKey("/api/segments"));

export function useContacts(query: ContactListQuery) {
  return useSWR<ResultOf<"/api/contacts", "get">>(contactKeys.list(query), fetcher, {
    keepPreviousData: true,
  });
}

export function useContact(id: string | undefined) {
  return useSWR<ResultOf<"/api/contacts/{id}", "get">>(id ? contactKeys.contact(id) : null, fetcher);
}

export function useInteractions(id: string | undefined) {
  return useSWR<ResultOf<"/api/contacts/{id}/interactions", "get">>(id ? contactKeys.interactions(id) : null, fetcher);
}

/** One settings list (custom fields, interaction types, contact types) by its key (`contactKeys`). */
export function useSettingsList<T>(key: string) {
  return useSWR<T[]>(key, fetcher);
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
  return useSWR<ResultOf<"/api/segments", "get">>(
    withCounts ? contactKeys.segmentsWithCounts() : contactKeys.segments(),
    fetcher,
  );
}

/** What "Ask for permission" would do now (nothing is sent). */
export function previewConsentAsk(target: ConsentAskTarget, signal?: AbortSignal) {
  return http.post("/api/contacts/consent-requests/preview", { body: jsonBody(target), signal });
}

/** Starts "Ask for permission"; the emails go in the background (poll with useConsentAsk). */
export function startConsentAsk(target: ConsentAskTarget) {
  return http.post("/api/contacts/consent-requests", { body: jsonBody(target) });
}

/** A started request, polled every second until it is done. */
export function useConsentAsk(id: string | undefined) {
  return useSWR<ResultOf<"/api/contacts/consent-requests/{id}", "get">>(
    id ? contactKeys.consentAsk(id) : null,
    fetcher,
    {
      refreshInterval: (data) => (data && !data.done ? 1000 : 0),
    },
  );
}

/** A list endpoint may answer a bare array or the paged shape; pages read both. */
export function itemsOf<T>(data: Array<T | null> | Page<T | null> | undefined): T[] {
  if (!data) return [];
  return (Array.isArray(data) ? data : data.result).filter((item): item is T => item !== null && item !== undefined);
}

export function useSegment(id: string | undefined) {
  return useSWR<ResultOf<"/api/segments/{id}", "get">>(id ? contactKeys.segment(id) : null, fetcher);
}

/** Polls an import every second while the service works on it (the bar survives a reload: the id is in the URL). */
export function useImport(id: string | undefined) {
  return useSWR<ResultOf<"/api/contacts/imports/{id}", "get">>(id ? contactKeys.import(id) : null, fetcher, {
    refreshInterval: (data) => (data && (data.processing || data.status === "processing") ? 1000 : 0),
  });
}

export function useContactWrites() {
  const { mutate } = useSWRConfig();
  const touchLists = () => void mutate(isContactListKey);
  return {
    create: async (input: ContactInput) => {
      const contact = await http.post("/api/contacts", { body: input as BodyOf<"/api/contacts", "post"> });
      touchLists();
      return contact;
    },
    update: async (id: string, patch: Partial<ContactInput>) => {
      const contact = await http.patch("/api/contacts/{id}", {
        path: { id },
        body: patch as BodyOf<"/api/contacts/{id}", "patch">,
      });
      await mutate(contactKeys.contact(id));
      touchLists();
      return contact;
    },
    remove: async (id: string) => {
      await http.del("/api/contacts/{id}", { path: { id } });
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
      const result = await http.post("/api/contacts/bulk", { body: input as BodyOf<"/api/contacts/bulk", "post"> });
      touchLists();
      return result;
    },
    addInteraction: async (id: string, input: BodyOf<"/api/contacts/{id}/interactions", "post">) => {
      const created = await http.post("/api/contacts/{id}/interactions", { path: { id }, body: input });
      await mutate(contactKeys.interactions(id));
      return created;
    },
  };
}

export async function saveSettingsList<T>(key: string, items: T[]): Promise<T[]> {
  return api.put<T[]>(key, items);
}

/** `POST /api/contacts/imports` with the raw file (`text/csv`); `name` tells the service the file's name. */
export function startImport(file: File): Promise<ResultOf<"/api/contacts/imports", "post">> {
  const body = file.type === "text/csv" ? file : new Blob([file], { type: "text/csv" });
  return api.post<ResultOf<"/api/contacts/imports", "post">>(`${contactKeys.imports()}?name=${enc(file.name)}`, body);
}

export function runImport(id: string, mapping: unknown, duplicates: "update" | "skip", inFile: "first" | "last") {
  return http.put("/api/contacts/imports/{id}", {
    path: { id },
    body: { mapping, duplicates, inFile } as BodyOf<"/api/contacts/imports/{id}", "put">,
  });
}

/** What the import would do with `mapping`, before it runs (nothing is written). */
export function checkImport(id: string, mapping: unknown, signal?: AbortSignal) {
  return http.post("/api/contacts/imports/{id}/check", {
    path: { id },
    body: { mapping } as BodyOf<"/api/contacts/imports/{id}/check", "post">,
    signal,
  });
}

export function previewSegment(query: SegmentQuery, signal?: AbortSignal) {
  return http.post("/api/segments/preview", { body: jsonBody({ query }), signal });
}

export function saveSegment(id: string | undefined, input: { name: string; query: SegmentQuery }) {
  return id
    ? http.put("/api/segments/{id}", { path: { id }, body: jsonBody(input) })
    : http.post("/api/segments", { body: jsonBody(input) });
}

export function deleteSegment(id: string) {
  return http.del("/api/segments/{id}", { path: { id } });
}

/**
 * Downloads a file the gateway answers without the envelope (CSV, JSON export) with the session's
 * cookies, under the client's session contract (`api.withSession`).
 */
export async function download(path: string, filename: string): Promise<void> {
  const response = await api.withSession(path, () => window.fetch(path, { credentials: "include", cache: "no-store" }));
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
