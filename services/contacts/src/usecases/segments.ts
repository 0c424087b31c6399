import { appError, badRequest, type Caller } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { type ConsentCounts, countConsent, noConsentCounts, tallyConsent } from "../domain/consent";
import { segmentView } from "../domain/contact";
import { matches, monthDayFacet, requiredFacets, type SegmentGroup } from "../domain/segment";
import type { Scope, StoredContact } from "../store/contact.repository";
import type { SegmentDoc } from "../store/segment.repository";
import { stateOf } from "./contacts";
import {
  type ContactQuery,
  isSortField,
  matchContacts,
  parseTree,
  segmentFields,
  sortContacts,
  sortMatched,
} from "./query";
import { paging, scopeOf } from "./scope";

type Deps = Pick<ContactsDeps, "stores" | "now">;

function segmentName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw badRequest({ name: "Name is required" });
  if (trimmed.length > 120) throw badRequest({ name: "A name has at most 120 characters" });
  return trimmed;
}

async function mustGetSegment(deps: Pick<ContactsDeps, "stores">, scope: Scope, id: string): Promise<SegmentDoc> {
  const segment = id.length <= 64 ? await deps.stores.segments.get(scope, id) : null;
  if (!segment) throw appError("NOT_FOUND", "No such segment.");
  return segment;
}

/** Creates (no id) or replaces a segment. @throws CR_ERR_BAD_REQUEST (name, tree), NOT_FOUND */
export async function saveSegment(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; segmentId: string; name: string; tree?: unknown },
): Promise<SegmentDoc> {
  const scope = scopeOf(caller, input.projectId);
  const name = segmentName(input.name);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const tree = parseTree(input.tree, segmentFields(settings));
  const now = deps.now();
  if (input.segmentId === "") {
    return deps.stores.segments.create({
      _id: crypto.randomUUID(),
      userId: scope.userId,
      projectId: scope.projectId,
      name,
      tree,
      createdAt: now,
      updatedAt: now,
    });
  }
  await mustGetSegment(deps, scope, input.segmentId);
  const updated = await deps.stores.segments.update(scope, input.segmentId, { name, tree, updatedAt: now });
  if (!updated) throw appError("NOT_FOUND", "No such segment.");
  return updated;
}

/** The project's saved segments; with `withCounts`, each with its contacts by consent (segmentCounts). */
export async function listSegments(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; withCounts?: boolean },
): Promise<Array<SegmentDoc & { counts?: ConsentCounts }>> {
  const scope = scopeOf(caller, input.projectId);
  const segments = await deps.stores.segments.list(scope);
  if (!input.withCounts || segments.length === 0) return segments;
  const counts = await segmentCounts(deps, scope, segments);
  return segments.map((segment, i) => ({ ...segment, counts: counts[i]! }));
}

/**
 * Each segment's contacts by consent, in one pass over the project's snapshot (the query path of
 * matchContacts: its required facets first, then the tree, or a hand-added member): a contact's
 * segment view is built once for all the segments, and nothing is read per segment but its
 * hand-added members.
 */
export async function segmentCounts(
  deps: Deps,
  scope: Scope,
  segments: readonly SegmentDoc[],
): Promise<ConsentCounts[]> {
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const fields = segmentFields(settings);
  const interactionTypes = settings.interactionTypes.map((t) => t.key);
  const plans = await Promise.all(
    segments.map(async (segment) => {
      const members = await deps.stores.segments.memberIds(scope.userId, segment._id);
      // A tree that no longer validates (a custom field since removed) matches nobody but its members.
      let facets: string[] | null = null;
      try {
        facets = members.size > 0 ? [] : requiredFacets(segment.tree, fields);
      } catch {
        facets = null;
      }
      return { tree: segment.tree, members, facets, counts: noConsentCounts() };
    }),
  );
  const snapshot = await deps.stores.contacts.snapshot(scope);
  for (const { contact } of snapshot.entries.values()) {
    let view: ReturnType<typeof segmentView> | undefined;
    for (const plan of plans) {
      let inSegment = plan.members.has(contact._id);
      if (!inSegment && plan.facets && plan.facets.every((f) => contact.facets?.includes(f))) {
        view ??= segmentView(stateOf(contact), interactionTypes);
        try {
          inSegment = matches(plan.tree, fields, view);
        } catch {
          inSegment = false;
        }
      }
      if (inSegment) tallyConsent(plan.counts, contact.consent);
    }
  }
  return plans.map((plan) => plan.counts);
}

export async function getSegment(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; segmentId: string },
): Promise<SegmentDoc> {
  return mustGetSegment(deps, scopeOf(caller, input.projectId), input.segmentId);
}

export async function deleteSegment(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; segmentId: string },
): Promise<void> {
  const scope = scopeOf(caller, input.projectId);
  if (!(input.segmentId.length <= 64 && (await deps.stores.segments.remove(scope, input.segmentId)))) {
    throw appError("NOT_FOUND", "No such segment.");
  }
}

/** Adds contacts of the project to a saved segment by hand. @returns how many were new members. */
export async function addToSegment(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; segmentId: string; contactIds: string[] },
): Promise<number> {
  const scope = scopeOf(caller, input.projectId);
  const segment = await mustGetSegment(deps, scope, input.segmentId);
  let added = 0;
  for (const id of new Set(input.contactIds)) {
    if (id.length > 64 || !(await deps.stores.contacts.get(scope, id))) continue;
    if (await deps.stores.segments.addMember(scope.userId, segment._id, id, deps.now())) added++;
  }
  return added;
}

/** The query of a saved segment: its tree or its hand-added members. */
export async function segmentQuery(deps: Deps, scope: Scope, segmentId: string): Promise<ContactQuery> {
  const segment = await mustGetSegment(deps, scope, segmentId);
  return { tree: segment.tree, members: await deps.stores.segments.memberIds(scope.userId, segment._id) };
}

/** How many contacts a tree matches, and the first `preview` of them (at most 20; by name). */
export async function countSegment(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; tree?: unknown; preview: number },
): Promise<{ count: number; preview: StoredContact[]; consent: ConsentCounts }> {
  const scope = scopeOf(caller, input.projectId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const fields = segmentFields(settings);
  const tree: SegmentGroup = parseTree(input.tree, fields);
  const { contacts } = await matchContacts(deps, scope, settings, { tree }, fields);
  const size = Math.max(0, Math.min(input.preview || 10, 20));
  return {
    count: contacts.length,
    preview: sortContacts(contacts, "name", false).slice(0, size),
    consent: countConsent(contacts),
  };
}

export interface ListInput extends Omit<ContactQuery, "tree" | "members"> {
  projectId: string;
  segmentId?: string;
  tree?: unknown;
  sortBy?: string;
  descending?: boolean;
  page: number;
  pageSize: number;
}

/** The contacts a list request names (filters, a saved segment or a tree), sorted. */
export async function queryContacts(
  deps: Deps,
  scope: Scope,
  input: Omit<ListInput, "page" | "pageSize" | "projectId">,
): Promise<readonly StoredContact[]> {
  return (await queryWithCounts(deps, scope, input)).contacts;
}

/**
 * queryContacts, and the contacts its other filters match by consent: the consent filter is
 * applied after counting, so the table's summary shows every status whichever one is chosen.
 */
export async function queryWithCounts(
  deps: Deps,
  scope: Scope,
  input: Omit<ListInput, "page" | "pageSize" | "projectId">,
): Promise<{ contacts: readonly StoredContact[]; consent: ConsentCounts }> {
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const fields = segmentFields(settings);
  let q: ContactQuery = {
    query: (input.query ?? "").slice(0, 200),
    tags: input.tags,
    contactType: input.contactType,
    customerKind: input.customerKind,
  };
  if (input.segmentId) q = { ...q, ...(await segmentQuery(deps, scope, input.segmentId)) };
  else if (input.tree !== undefined && input.tree !== null) q = { ...q, tree: parseTree(input.tree, fields) };
  const matched = await matchContacts(deps, scope, settings, q, fields);
  const consent = countConsent(matched.contacts);
  if (input.consent) matched.contacts = matched.contacts.filter((c) => c.consent === input.consent);
  const sortBy = input.sortBy && isSortField(input.sortBy) ? input.sortBy : "updated_on";
  const descending = input.sortBy && isSortField(input.sortBy) ? (input.descending ?? false) : true;
  return { contacts: sortMatched(matched, sortBy, descending), consent };
}

/** One page of the customer profile table. */
export async function listContacts(
  deps: Deps,
  caller: Caller,
  input: ListInput,
): Promise<{ items: StoredContact[]; count: number; page: number; totalPages: number; consent: ConsentCounts }> {
  const scope = scopeOf(caller, input.projectId);
  if (input.sortBy && !isSortField(input.sortBy)) throw badRequest({ sort: "Unknown sort field" });
  const { page, pageSize } = paging(input.page, input.pageSize);
  const { contacts: all, consent } = await queryWithCounts(deps, scope, input);
  return {
    items: all.slice((page - 1) * pageSize, page * pageSize),
    count: all.length,
    page,
    totalPages: Math.max(1, Math.ceil(all.length / pageSize)),
    consent,
  };
}

/**
 * Which of the saved segments `segmentIds` the contact is in now (its tree matches it, or it was
 * added by hand). Unknown segments and an unknown contact give none.
 */
export async function matchSegments(
  deps: Deps,
  scope: Scope,
  input: { contactId: string; segmentIds: string[] },
): Promise<string[]> {
  const contact = input.contactId.length <= 64 ? await deps.stores.contacts.get(scope, input.contactId) : null;
  if (!contact) return [];
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const fields = segmentFields(settings);
  const view = segmentView(
    stateOf(contact),
    settings.interactionTypes.map((t) => t.key),
  );
  const out: string[] = [];
  for (const id of new Set(input.segmentIds.slice(0, 100))) {
    if (id.length > 64) continue;
    const segment = await deps.stores.segments.get(scope, id);
    if (!segment) continue;
    const members = await deps.stores.segments.memberIds(scope.userId, segment._id);
    if (members.has(contact._id) || matches(segment.tree, fields, view)) out.push(id);
  }
  return out;
}

/**
 * One page of the project's contacts whose date field falls on one of `monthDays` (`MM-DD`, UTC),
 * found by their month-day facets (domain/segment.ts `monthDayFacet`), for the automations'
 * date_field trigger. Contacts saved before the facet existed carry it after their next save.
 * @throws CR_ERR_BAD_REQUEST for a field that is not a date field of the project, or a bad month-day.
 */
export async function contactsByDate(
  deps: Deps,
  scope: Scope,
  input: { field: string; monthDays: string[]; after: string; limit: number },
): Promise<{ contacts: Array<{ contactId: string; email: string }>; next: string }> {
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const field = segmentFields(settings).get(input.field);
  if (field?.kind !== "date" || input.field === "updated_on")
    throw appError("CR_ERR_BAD_REQUEST", "Not a date field", { field: "Choose a date field" });
  const monthDays = [...new Set(input.monthDays)];
  if (monthDays.length === 0 || monthDays.length > 2 || monthDays.some((d) => !/^\d{2}-\d{2}$/.test(d)))
    throw appError("CR_ERR_BAD_REQUEST", "month_days are MM-DD", { monthDays: "One or two MM-DD days" });
  const limit = input.limit > 0 ? Math.min(input.limit, 1000) : 500;
  const page = await deps.stores.contacts.withFacets(
    scope,
    monthDays.map((d) => monthDayFacet(input.field, d)),
    input.after.slice(0, 64),
    limit,
  );
  return {
    contacts: page.map((c) => ({ contactId: c._id, email: c.email })),
    next: page.length === limit ? page[page.length - 1]!._id : "",
  };
}
