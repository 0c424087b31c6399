import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsentAskRun,
  type ConsentChange,
  ConsentStatus,
  type Contact,
  type ContactSettings,
  type ImportState,
  type Interaction,
} from "@crafter/proto/crafter/contacts/v1/contacts_pb";

/** Contacts REST shapes (docs/second-half-contract.md "Contacts REST") from the service's messages. */

const iso = (t: Timestamp | undefined): string | null => (t ? timestampDate(t).toISOString() : null);

export const CONSENT_NAMES: Record<ConsentStatus, string> = {
  [ConsentStatus.UNSPECIFIED]: "pending",
  [ConsentStatus.PENDING]: "pending",
  [ConsentStatus.SUBSCRIBED]: "subscribed",
  [ConsentStatus.UNSUBSCRIBED]: "unsubscribed",
  [ConsentStatus.BOUNCED]: "bounced",
  [ConsentStatus.COMPLAINED]: "complained",
};

export const CONSENT_VALUES = ["pending", "subscribed", "unsubscribed", "bounced", "complained"] as const;

export function consentStatusOf(name: (typeof CONSENT_VALUES)[number]): ConsentStatus {
  const found = Object.entries(CONSENT_NAMES).find(([value, n]) => n === name && Number(value) !== 0);
  return Number(found?.[0] ?? 0) as ConsentStatus;
}

export function toContactJson(c: Contact | undefined) {
  if (!c) return null;
  return {
    id: c.contactId,
    projectId: c.projectId,
    name: `${c.firstName} ${c.lastName}`.trim(),
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: c.phone,
    company: c.company,
    customerKind: c.customerKind,
    contactType: c.contactType,
    tags: c.tags,
    custom: (c.custom ?? {}) as Record<string, unknown>,
    customerSince: iso(c.customerSince),
    updated_on: iso(c.updatedOn),
    source: c.source,
    consent: CONSENT_NAMES[c.consent],
    consentAt: iso(c.consentAt),
    interactionCount: c.interactionCount,
    timeZone: c.timeZone,
    orderCount: c.orderCount ?? null,
    totalSpent: c.totalSpent ?? null,
    spentCurrency: c.spentCurrency,
  };
}

export function toConsentChangeJson(c: ConsentChange) {
  return { status: CONSENT_NAMES[c.status], at: iso(c.at), source: c.source };
}

export function toInteractionJson(i: Interaction) {
  return { id: i.interactionId, type: i.type, note: i.note, occurredAt: iso(i.at) };
}

export function toSettingsJson(s: ContactSettings | undefined) {
  return {
    customFields: (s?.customFields ?? []).map((f) => ({
      key: f.key,
      label: f.label,
      type: f.type,
      ...(f.options.length > 0 ? { options: f.options } : {}),
    })),
    interactionTypes: (s?.interactionTypes ?? []).map(({ key, label }) => ({ key, label })),
    contactTypes: (s?.contactTypes ?? []).map(({ key, label }) => ({ key, label })),
  };
}

/** One click of "Ask for permission" and how far it has got. */
export function toConsentAskJson(r: ConsentAskRun | undefined) {
  return {
    id: r?.runId ?? "",
    segmentId: r?.segmentId ?? "",
    total: r?.total ?? 0,
    sent: r?.sent ?? 0,
    skipped: r?.skipped ?? 0,
    done: r?.done ?? false,
    startedAt: iso(r?.startedAt),
    finishedAt: iso(r?.finishedAt),
  };
}

/** The spec's contact import state. */
export function toImportJson(i: ImportState | undefined) {
  if (!i) return null;
  const status: "fields" | "processing" | "result" | "error" =
    i.status === "uploaded"
      ? "fields"
      : i.status === "done"
        ? "result"
        : i.status === "failed"
          ? "error"
          : "processing";
  return {
    id: i.importId,
    status,
    processing: i.processing,
    file: { name: i.fileName, size: Number(i.fileSize), rows: i.rowsTotal },
    headers: i.headers,
    preview: i.preview.map((row) => row.values.map((v) => (v.kind.case === "stringValue" ? v.kind.value : ""))),
    fields: Object.fromEntries(i.mapping.map((m) => [m.header, m.target || null])),
    mapping: i.mapping.map((m) => ({ header: m.header, target: m.target || null })),
    duplicates: i.dedupe || null,
    result: {
      processed: i.rowsDone,
      total: i.rowsTotal,
      created: i.created,
      updated: i.updated,
      skipped: i.skipped,
      failed: i.failed,
      overLimit: i.overLimit,
      duplicatesInFile: i.duplicatesInFile,
    },
    inFile: i.inFile === "last" ? ("last" as const) : i.inFile === "first" ? ("first" as const) : null,
    errors: i.errors.map(({ line, email, value, reason }) => ({ line, email, value, reason })),
    limit: i.limitCode ? { code: i.limitCode, limit: i.limit } : null,
    error: i.error || null,
    createdAt: iso(i.createdAt),
  };
}
