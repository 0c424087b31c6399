import { appError, badRequest, type Caller, isDuplicateKey, type OutboxEntry } from "@crafter/kit";
import { limitScenario } from "../clients/plans";
import type { ContactsDeps } from "../deps";
import {
  type ContactFields,
  type ContactFieldsInput,
  type ContactState,
  checkContactFields,
  indexedArrays,
  isConsentStatus,
} from "../domain/contact";
import type { ConsentStatus, ContactSource } from "../domain/fields";
import type { ContactDoc, Scope, StoredContact } from "../store/contact.repository";
import type { ConsentChangeDoc, InteractionDoc } from "../store/timeline.repository";
import { customDefinitions, paging, scopeOf } from "./scope";

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "plans">;

export function stateOf(doc: StoredContact): ContactState {
  return {
    firstName: doc.firstName,
    lastName: doc.lastName,
    email: doc.email,
    phone: doc.phone,
    company: doc.company,
    customerKind: doc.customerKind as ContactState["customerKind"],
    contactType: doc.contactType,
    tags: doc.tags ?? [],
    custom: doc.custom ?? {},
    customerSince: doc.customerSince,
    timeZone: doc.timeZone ?? "",
    source: doc.source,
    consent: doc.consent,
    updatedOn: doc.updatedOn,
    interactionCounts: doc.interactionCounts ?? {},
    orderCount: doc.orderCount,
    totalSpent: doc.totalSpent,
  };
}

const refOf = (doc: Pick<StoredContact, "_id" | "userId" | "projectId" | "email">) => ({
  userId: doc.userId,
  projectId: doc.projectId,
  contactId: doc._id,
  email: doc.email,
});

/**
 * Throws the plan's upgrade scenario (FREE_USER_LIMIT, CORE_CONTACTS_LIMIT, PLAN_LIMIT_REACHED; 402)
 * when the user's contacts alive (all projects) would pass the plan's `profiles` limit with `adding` more.
 * @returns how many more the plan allows and its limit.
 */
export async function profileRoom(
  deps: Pick<ContactsDeps, "stores" | "plans">,
  userId: string,
  signal?: AbortSignal,
): Promise<{ room: number; limit: number; code: ReturnType<typeof limitScenario> }> {
  const [{ tier, limit }, alive] = await Promise.all([
    deps.plans.profileLimit(userId, signal),
    deps.stores.contacts.countForUser(userId),
  ]);
  return { room: Math.max(0, limit - alive), limit, code: limitScenario(tier) };
}

/** A new contact document (not stored) from checked fields. */
export function newContactDoc(
  scope: Scope,
  fields: ContactFields,
  source: ContactSource,
  consent: ConsentStatus,
  now: Date,
  customFields: ReturnType<typeof customDefinitions>,
  consentAt?: Date,
): Omit<ContactDoc, "outbox" | "outboxMinute"> {
  const state: ContactState = { ...fields, source, consent, updatedOn: now, interactionCounts: {} };
  return {
    _id: crypto.randomUUID(),
    userId: scope.userId,
    projectId: scope.projectId,
    ...fields,
    source,
    consent,
    consentAt: consentAt ?? now,
    updatedOn: now,
    interactionCounts: {},
    interactionCount: 0,
    ...indexedArrays(state, customFields),
    createdAt: now,
  };
}

export interface CreateContactInput {
  projectId: string;
  contact: ContactFieldsInput;
  source?: ContactSource;
  consent?: ConsentStatus;
}

/**
 * Creates a contact (consent `pending` unless said otherwise: nobody is emailed before opting in).
 * @throws CR_ERR_BAD_REQUEST with 'Email is required' / 'Invalid email' per field; CONTACT_EXISTS (409);
 * the plan's profile-limit scenario (402).
 */
export async function createContact(deps: Deps, caller: Caller, input: CreateContactInput): Promise<StoredContact> {
  const scope = scopeOf(caller, input.projectId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const checked = checkContactFields(input.contact, {
    customFields: customDefinitions(settings),
    contactTypes: settings.contactTypes.map((t) => t.key),
  });
  if (!checked.ok) throw badRequest(checked.fields);
  if (await deps.stores.contacts.byEmail(scope, checked.value.email)) {
    throw appError("CONTACT_EXISTS", undefined, { email: "A contact with this email already exists." });
  }
  const { room, code } = await profileRoom(deps, scope.userId, caller.signal);
  if (room <= 0) throw appError(code);
  const now = deps.now();
  const source = input.source ?? "manual";
  const consent = input.consent ?? "pending";
  const doc = newContactDoc(scope, checked.value, source, consent, now, customDefinitions(settings));
  const inserted = await deps.stores.contacts.insert(doc, deps.events.created(refOf(doc), source, consent));
  if (!inserted) throw appError("CONTACT_EXISTS", undefined, { email: "A contact with this email already exists." });
  await deps.stores.timeline.appendConsent(scope, doc._id, consent, source, now);
  deps.kick();
  return doc;
}

async function mustGet(deps: Pick<ContactsDeps, "stores">, scope: Scope, id: string): Promise<StoredContact> {
  const doc = id.length <= 64 ? await deps.stores.contacts.get(scope, id) : null;
  if (!doc) throw appError("NOT_FOUND", "No such contact.");
  return doc;
}

export interface ContactDetails {
  contact: StoredContact;
  consentHistory: ConsentChangeDoc[];
  interactions: InteractionDoc[];
}

/** A contact with its consent history (oldest first) and its 20 newest interactions. @throws NOT_FOUND */
export async function getContact(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string; contactId: string },
): Promise<ContactDetails> {
  const scope = scopeOf(caller, input.projectId);
  const contact = await mustGet(deps, scope, input.contactId);
  const [consentHistory, interactions] = await Promise.all([
    deps.stores.timeline.consentHistory(scope, contact._id),
    deps.stores.timeline.interactionsOf(scope, contact._id),
  ]);
  return { contact, consentHistory, interactions: interactions.slice(0, 20) };
}

/**
 * Changes a contact's fields (those given). A new email must be free in the project.
 * @throws NOT_FOUND, CR_ERR_BAD_REQUEST (per field), CONTACT_EXISTS.
 */
export async function updateContact(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; contactId: string; contact: ContactFieldsInput },
): Promise<StoredContact> {
  const scope = scopeOf(caller, input.projectId);
  const current = await mustGet(deps, scope, input.contactId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const customFields = customDefinitions(settings);
  const checked = checkContactFields(
    input.contact,
    { customFields, contactTypes: settings.contactTypes.map((t) => t.key) },
    stateOf(current),
  );
  if (!checked.ok) throw badRequest(checked.fields);
  if (checked.value.email !== current.email && (await deps.stores.contacts.byEmail(scope, checked.value.email))) {
    throw appError("CONTACT_EXISTS", undefined, { email: "A contact with this email already exists." });
  }
  return saveFields(deps, scope, current, checked.value, customFields);
}

/** Tags added and removed between two lists (compared case-insensitively, named as stored). */
export function tagChanges(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const lower = (tags: readonly string[]) => new Set(tags.map((t) => t.toLowerCase()));
  const was = lower(before);
  const now = lower(after);
  return {
    added: after.filter((t) => !was.has(t.toLowerCase())),
    removed: before.filter((t) => !now.has(t.toLowerCase())),
  };
}

/** A contact's update, planned: what to set, its events, and the contact as it will be. */
export interface PlannedUpdate {
  id: string;
  set: Partial<ContactDoc>;
  events: OutboxEntry[];
  after: StoredContact;
}

/**
 * Plans new fields of a contact (pure but for the clock): ContactUpdated, and ContactTagged when its
 * tags changed; the search tokens and facets recomputed.
 */
export function planUpdate(
  deps: Pick<ContactsDeps, "events" | "now">,
  current: StoredContact,
  fields: ContactFields,
  customFields: ReturnType<typeof customDefinitions>,
  extra: Partial<ContactDoc> = {},
): PlannedUpdate {
  const now = deps.now();
  const state: ContactState = { ...stateOf(current), ...fields, ...(extra as Partial<ContactState>), updatedOn: now };
  const set: Partial<ContactDoc> = { ...fields, ...extra, updatedOn: now, ...indexedArrays(state, customFields) };
  if (fields.customerSince === undefined) delete set.customerSince;
  const ref = refOf({ ...current, email: fields.email });
  const events = [deps.events.updated(ref, state.consent)];
  const { added, removed } = tagChanges(current.tags ?? [], fields.tags);
  if (added.length > 0 || removed.length > 0) events.push(deps.events.tagged(ref, added, removed));
  return { id: current._id, set, events, after: { ...current, ...set } as StoredContact };
}

/** Stores new fields of a contact with ContactUpdated, and ContactTagged when its tags changed. */
export async function saveFields(
  deps: Pick<ContactsDeps, "stores" | "events" | "kick" | "now">,
  scope: Scope,
  current: StoredContact,
  fields: ContactFields,
  customFields: ReturnType<typeof customDefinitions>,
  extra: Partial<ContactDoc> = {},
): Promise<StoredContact> {
  const { set, events } = planUpdate(deps, current, fields, customFields, extra);
  let updated: StoredContact | null;
  try {
    updated = await deps.stores.contacts.update(scope, current._id, set, events);
  } catch (error) {
    if (isDuplicateKey(error)) {
      throw appError("CONTACT_EXISTS", undefined, { email: "A contact with this email already exists." });
    }
    throw error;
  }
  if (!updated) throw appError("NOT_FOUND", "No such contact.");
  deps.kick();
  return updated;
}

/**
 * Deletes contacts everywhere: a tombstone with ContactDeleted first, then the contact, its consent
 * history and interactions. Unknown ids are skipped. @returns how many were deleted.
 */
export async function deleteContacts(
  deps: Pick<ContactsDeps, "stores" | "events" | "kick" | "now">,
  caller: Caller,
  input: { projectId: string; contactIds: string[] },
): Promise<number> {
  const scope = scopeOf(caller, input.projectId);
  let deleted = 0;
  for (const id of new Set(input.contactIds)) {
    if (id.length > 64) continue;
    const contact = await deps.stores.contacts.get(scope, id);
    if (!contact) continue;
    if (await removeContact(deps, scope, contact)) deleted++;
  }
  if (deleted > 0) deps.kick();
  return deleted;
}

/**
 * Deletes one contact: its tombstone with ContactDeleted first, then its consent history and
 * interactions, then the contact. @returns whether the contact was still there.
 */
export async function removeContact(
  deps: Pick<ContactsDeps, "stores" | "events" | "now">,
  scope: Scope,
  contact: StoredContact,
): Promise<boolean> {
  await deps.stores.timeline.tombstone(scope, contact._id, deps.now(), deps.events.deleted(refOf(contact)));
  await deps.stores.timeline.removeContact(scope, contact._id);
  return deps.stores.contacts.remove(scope, contact._id);
}

/** Adds and removes tags on contacts (case-insensitive). @returns how many contacts changed. */
export async function tagContacts(
  deps: Pick<ContactsDeps, "stores" | "events" | "kick" | "now">,
  caller: Caller,
  input: { projectId: string; contactIds: string[]; add: string[]; remove: string[] },
): Promise<number> {
  const scope = scopeOf(caller, input.projectId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const customFields = customDefinitions(settings);
  const remove = new Set(input.remove.map((t) => t.trim().toLowerCase()));
  const add = input.add.map((t) => t.trim()).filter((t) => t !== "");
  if (add.some((t) => t.length > 50)) throw badRequest({ tags: "A tag has at most 50 characters" });
  let changed = 0;
  for (const id of new Set(input.contactIds)) {
    if (id.length > 64) continue;
    const contact = await deps.stores.contacts.get(scope, id);
    if (!contact) continue;
    const checked = checkContactFields(
      { tags: [...contact.tags.filter((t) => !remove.has(t.toLowerCase())), ...add] },
      { customFields, contactTypes: [] },
      stateOf(contact),
    );
    if (!checked.ok) throw badRequest(checked.fields);
    const before = contact.tags.map((t) => t.toLowerCase()).join("\n");
    if (checked.value.tags.map((t) => t.toLowerCase()).join("\n") === before) continue;
    await saveFields(deps, scope, contact, checked.value, customFields);
    changed++;
  }
  return changed;
}

/**
 * Records a consent change (appended to the history) and sets the contact's status; unsubscribing
 * publishes ContactUnsubscribed besides ContactUpdated.
 */
export async function setConsent(
  deps: Pick<ContactsDeps, "stores" | "events" | "kick" | "now">,
  scope: Scope,
  contact: StoredContact,
  status: ConsentStatus,
  source: string,
): Promise<StoredContact> {
  const now = deps.now();
  await deps.stores.timeline.appendConsent(scope, contact._id, status, source, now);
  if (contact.consent === status) return contact;
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const customFields = customDefinitions(settings);
  const state: ContactState = { ...stateOf(contact), consent: status, updatedOn: now };
  const events = [deps.events.updated(refOf(contact), status)];
  if (status === "unsubscribed") events.push(deps.events.unsubscribed(refOf(contact), source, now));
  const updated = await deps.stores.contacts.update(
    scope,
    contact._id,
    { consent: status, consentAt: now, updatedOn: now, ...indexedArrays(state, customFields) },
    events,
  );
  if (!updated) throw appError("NOT_FOUND", "No such contact.");
  deps.kick();
  return updated;
}

/** The user's consent change of one contact (source "manual" unless given). */
export async function changeConsent(
  deps: Pick<ContactsDeps, "stores" | "events" | "kick" | "now">,
  caller: Caller,
  input: { projectId: string; contactId: string; status: string; source?: string },
): Promise<StoredContact> {
  if (!isConsentStatus(input.status))
    throw badRequest({ consent: "Consent is pending, subscribed, unsubscribed, bounced or complained" });
  const scope = scopeOf(caller, input.projectId);
  const contact = await mustGet(deps, scope, input.contactId);
  return setConsent(deps, scope, contact, input.status, input.source || "manual");
}

/**
 * Appends an interaction (its type from the settings list) and recounts the contact's interactions
 * from the collection (a recount, not an increment: concurrent appends cannot lose one).
 */
export async function addInteraction(
  deps: Pick<ContactsDeps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; contactId: string; type: string; note: string; at?: Date },
): Promise<InteractionDoc> {
  const scope = scopeOf(caller, input.projectId);
  const contact = await mustGet(deps, scope, input.contactId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const type = settings.interactionTypes.find((t) => t.key.toLowerCase() === input.type.trim().toLowerCase());
  if (!type) throw badRequest({ type: "Unknown interaction type" });
  if (input.note.length > 5000) throw badRequest({ note: "A note has at most 5000 characters" });
  const at = input.at && !Number.isNaN(input.at.getTime()) ? input.at : deps.now();
  return recordInteraction(deps, scope, contact._id, type.key, input.note.trim(), at);
}

/**
 * Appends an interaction of `type` to a contact and recounts its interactions from the collection
 * (a recount, not an increment: concurrent appends cannot lose one).
 */
export async function recordInteraction(
  deps: Pick<ContactsDeps, "stores" | "now">,
  scope: Scope,
  contactId: string,
  type: string,
  note: string,
  at: Date,
  /** Given (a lead-form submission's), the interaction is recorded once however often this runs. */
  id?: string,
): Promise<InteractionDoc> {
  const interaction = await deps.stores.timeline.appendInteraction({
    ...(id ? { _id: id } : {}),
    userId: scope.userId,
    projectId: scope.projectId,
    contactId,
    type,
    note,
    at,
    createdAt: deps.now(),
  });
  const all = await deps.stores.timeline.interactionsOf(scope, contactId);
  const counts: Record<string, number> = {};
  for (const item of all) counts[item.type] = (counts[item.type] ?? 0) + 1;
  await deps.stores.contacts.update(scope, contactId, { interactionCounts: counts, interactionCount: all.length }, []);
  return interaction;
}

/** One page of a contact's interactions, newest first. */
export async function listInteractions(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string; contactId: string; page: number; pageSize: number },
): Promise<{ items: InteractionDoc[]; count: number; page: number; totalPages: number }> {
  const scope = scopeOf(caller, input.projectId);
  const contact = await mustGet(deps, scope, input.contactId);
  const { page, pageSize } = paging(input.page, input.pageSize);
  const all = await deps.stores.timeline.interactionsOf(scope, contact._id);
  return {
    items: all.slice((page - 1) * pageSize, page * pageSize),
    count: all.length,
    page,
    totalPages: Math.max(1, Math.ceil(all.length / pageSize)),
  };
}

/**
 * How many interactions a contact has, from the counts kept on the contact as each one is appended:
 * in all, and by type, most first (ties by type). @throws NOT_FOUND for no such contact.
 */
export async function countInteractions(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string; contactId: string },
): Promise<{ count: number; byType: Array<{ type: string; count: number }> }> {
  const contact = await mustGet(deps, scopeOf(caller, input.projectId), input.contactId);
  const byType = Object.entries(contact.interactionCounts ?? {})
    .filter(([, count]) => count > 0)
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  return { count: contact.interactionCount ?? 0, byType };
}

/** Everything stored about one contact, as one JSON document (privacy export). */
export async function exportContactData(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string; contactId: string },
): Promise<string> {
  const scope = scopeOf(caller, input.projectId);
  const contact = await mustGet(deps, scope, input.contactId);
  const [consentHistory, interactions] = await Promise.all([
    deps.stores.timeline.consentHistory(scope, contact._id),
    deps.stores.timeline.interactionsOf(scope, contact._id),
  ]);
  const {
    searchTokens: _t,
    facets: _f,
    outboxMinute: _m,
    userId: _u,
    ...data
  } = contact as StoredContact & {
    outboxMinute?: number;
    searchTokens?: string[];
  };
  return JSON.stringify(
    {
      exportedAt: new Date().toISOString(),
      contact: { ...data, id: contact._id, _id: undefined },
      consentHistory: consentHistory.map(({ status, source, at }) => ({ status, source, at })),
      interactions: interactions.map(({ _id, type, note, at }) => ({ id: _id, type, note, at })),
    },
    null,
    2,
  );
}
