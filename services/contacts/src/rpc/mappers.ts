import { create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsentAskRun,
  ConsentAskRunSchema,
  type ConsentChange,
  ConsentChangeSchema,
  ConsentStatus,
  type Contact,
  type ContactInput,
  ContactSchema,
  type Interaction,
  InteractionSchema,
  type Segment,
  SegmentSchema,
} from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import type { ConsentCounts } from "../domain/consent";
import type { ContactFieldsInput } from "../domain/contact";
import type { ConsentStatus as Consent } from "../domain/fields";
import type { ConsentAskRunDoc } from "../store/consent-ask.repository";
import type { StoredContact } from "../store/contact.repository";
import type { SegmentDoc } from "../store/segment.repository";
import type { ConsentChangeDoc, InteractionDoc } from "../store/timeline.repository";

const CONSENT: Record<Consent, ConsentStatus> = {
  pending: ConsentStatus.PENDING,
  subscribed: ConsentStatus.SUBSCRIBED,
  unsubscribed: ConsentStatus.UNSUBSCRIBED,
  bounced: ConsentStatus.BOUNCED,
  complained: ConsentStatus.COMPLAINED,
};

export const consentToProto = (status: Consent): ConsentStatus => CONSENT[status] ?? ConsentStatus.UNSPECIFIED;

export function consentFromProto(status: ConsentStatus): Consent | undefined {
  return (Object.entries(CONSENT) as Array<[Consent, ConsentStatus]>).find(([, value]) => value === status)?.[0];
}

const ts = (date: Date | undefined | null): Timestamp | undefined =>
  date ? timestampFromDate(new Date(date)) : undefined;

/** JSON-safe custom values (dates as ISO strings). */
export function jsonCustom(custom: Record<string, unknown> | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(custom ?? {})) {
    out[key] = value instanceof Date ? value.toISOString() : (value as JsonValue);
  }
  return out;
}

export function toContact(doc: StoredContact): Contact {
  return create(ContactSchema, {
    contactId: doc._id,
    projectId: doc.projectId,
    firstName: doc.firstName,
    lastName: doc.lastName,
    email: doc.email,
    phone: doc.phone,
    company: doc.company,
    customerKind: doc.customerKind,
    contactType: doc.contactType,
    tags: doc.tags ?? [],
    custom: jsonCustom(doc.custom),
    customerSince: ts(doc.customerSince),
    updatedOn: ts(doc.updatedOn),
    source: doc.source,
    consent: consentToProto(doc.consent),
    consentAt: ts(doc.consentAt),
    interactionCount: doc.interactionCount ?? 0,
    timeZone: doc.timeZone ?? "",
    orderCount: typeof doc.orderCount === "number" ? doc.orderCount : undefined,
    totalSpent: typeof doc.totalSpent === "number" ? doc.totalSpent : undefined,
    spentCurrency: doc.spentCurrency ?? "",
  });
}

export function toConsentChange(doc: ConsentChangeDoc): ConsentChange {
  return create(ConsentChangeSchema, { status: consentToProto(doc.status), at: ts(doc.at), source: doc.source });
}

export function toInteraction(doc: InteractionDoc): Interaction {
  return create(InteractionSchema, { interactionId: doc._id, type: doc.type, note: doc.note, at: ts(doc.at) });
}

export function toSegment(doc: SegmentDoc & { counts?: ConsentCounts }): Segment {
  return create(SegmentSchema, {
    segmentId: doc._id,
    projectId: doc.projectId,
    name: doc.name,
    tree: doc.tree as unknown as JsonObject,
    updatedAt: ts(doc.updatedAt),
    ...(doc.counts ? { counts: doc.counts } : {}),
  });
}

export function toConsentAskRun(doc: ConsentAskRunDoc): ConsentAskRun {
  return create(ConsentAskRunSchema, {
    runId: doc._id,
    projectId: doc.projectId,
    segmentId: doc.segmentId,
    total: doc.total,
    sent: doc.sent,
    skipped: doc.skipped,
    done: doc.finishedAt !== undefined && doc.finishedAt !== null,
    startedAt: ts(doc.startedAt),
    finishedAt: ts(doc.finishedAt),
  });
}

/**
 * The fields a ContactInput sets: those named in `fields` (JSON names), or all when it is empty.
 * Proto3 cannot say "absent", hence the list.
 */
export function fromContactInput(input: ContactInput | undefined, fields: readonly string[] = []): ContactFieldsInput {
  const c = input ?? ({} as ContactInput);
  const all: ContactFieldsInput = {
    firstName: c.firstName ?? "",
    lastName: c.lastName ?? "",
    email: c.email ?? "",
    phone: c.phone ?? "",
    company: c.company ?? "",
    customerKind: c.customerKind ?? "",
    contactType: c.contactType ?? "",
    tags: c.tags ?? [],
    custom: (c.custom ?? {}) as Record<string, unknown>,
    timeZone: c.timeZone ?? "",
  };
  if (c.customerSince) all.customerSince = timestampDate(c.customerSince);
  if (fields.length === 0) return all;
  const out: ContactFieldsInput = {};
  for (const name of fields) {
    if (Object.hasOwn(all, name)) (out as Record<string, unknown>)[name] = (all as Record<string, unknown>)[name];
  }
  return out;
}
