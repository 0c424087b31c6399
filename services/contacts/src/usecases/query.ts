import { appError, badRequest } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { segmentView } from "../domain/contact";
import { type FieldDefinition, fieldCatalogue } from "../domain/fields";
import { matchesToken, queryTokens } from "../domain/search";
import {
  facet,
  isGroup,
  matches,
  requiredFacets,
  type SegmentGroup,
  type SegmentRule,
  validateSegment,
} from "../domain/segment";
import type { Scope, StoredContact } from "../store/contact.repository";
import type { ProjectSnapshot } from "../store/contact-snapshot";
import type { Settings } from "../store/settings.repository";
import { stateOf } from "./contacts";
import { customDefinitions } from "./scope";

/** The table's filters: token search, facets, a segment tree; every one optional. */
export interface ContactQuery {
  query?: string;
  tags?: string[];
  consent?: string;
  contactType?: string;
  customerKind?: string;
  tree?: SegmentGroup;
  /** Contacts added to a saved segment by hand, matched besides its tree. */
  members?: ReadonlySet<string>;
}

export const SORT_FIELDS = [
  "name",
  "firstName",
  "lastName",
  "email",
  "company",
  "customerSince",
  "updated_on",
  "createdAt",
  "consent",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** Every field segments know in a project: built-ins, custom fields, and `interactions.<type>` counts. */
export function segmentFields(settings: Settings): Map<string, FieldDefinition> {
  const fields = fieldCatalogue(customDefinitions(settings));
  for (const type of settings.interactionTypes) {
    fields.push({ key: `interactions.${type.key}`, label: `${type.label} interactions`, kind: "number" });
  }
  return new Map(fields.map((field) => [field.key, field]));
}

/**
 * A segment tree from untrusted JSON (react-querybuilder's shape, extra keys ignored).
 * @throws CR_ERR_BAD_REQUEST naming the first problem (unknown field, operator, value).
 */
export function parseTree(raw: unknown, fields: ReadonlyMap<string, FieldDefinition>): SegmentGroup {
  const read = (node: unknown, depth: number): SegmentGroup | SegmentRule => {
    if (typeof node !== "object" || node === null || Array.isArray(node) || depth > 6) {
      throw badRequest({ query: "A segment is a group of rules" });
    }
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.rules)) {
      const combinator = String(o.combinator ?? "and").toLowerCase();
      return {
        combinator: combinator === "or" ? "or" : (combinator as "and"),
        not: o.not === true,
        rules: o.rules.slice(0, 60).map((child) => read(child, depth + 1)),
      };
    }
    return {
      field: String(o.field ?? ""),
      operator: String(o.operator ?? "") as SegmentRule["operator"],
      value: o.value,
    };
  };
  const root = read(raw, 0);
  if (!isGroup(root)) throw badRequest({ query: "A segment is a group of rules" });
  const problems = validateSegment(root, fields);
  if (problems.length > 0) throw badRequest({ query: problems[0]!.message });
  return root;
}

/** The contacts a query matched (objects of `snapshot`), unordered. */
export interface Matched {
  contacts: StoredContact[];
  snapshot: ProjectSnapshot;
}

/**
 * Runs a query over the project's snapshot (store/contact-snapshot.ts), in memory: the tokens
 * (domain/search.ts `matchesToken`), the table's facets, then the tree (`matches`, with the facets
 * every match must carry checked first as a shortcut). The database is read only to build a
 * snapshot Redis has lost (docs/adr/0002, amendment 2). Unordered.
 */
export async function matchContacts(
  deps: Pick<ContactsDeps, "stores">,
  scope: Scope,
  settings: Settings,
  q: ContactQuery,
  fields = segmentFields(settings),
): Promise<Matched> {
  const tokens = queryTokens(q.query ?? "");
  const facets: string[] = [];
  for (const tag of q.tags ?? []) if (tag.trim() !== "") facets.push(facet("tags", tag.trim()));
  if (q.consent) facets.push(facet("consent", q.consent));
  if (q.contactType) facets.push(facet("contactType", q.contactType));
  if (q.customerKind) facets.push(facet("customerKind", q.customerKind));
  // A tree with hand-added members may match contacts without its facets: no shortcut then.
  const treeFacets = q.tree && !(q.members && q.members.size > 0) ? requiredFacets(q.tree, fields) : [];
  const interactionTypes = settings.interactionTypes.map((t) => t.key);
  const snapshot = await deps.stores.contacts.snapshot(scope);
  const out: StoredContact[] = [];
  for (const { contact, words } of snapshot.entries.values()) {
    if (!tokens.every((t) => matchesToken(words, contact.email, t))) continue;
    if (!facets.every((f) => contact.facets?.includes(f))) continue;
    if (q.tree) {
      const inTree =
        treeFacets.every((f) => contact.facets?.includes(f)) &&
        matches(q.tree, fields, segmentView(stateOf(contact), interactionTypes));
      if (!inTree && !q.members?.has(contact._id)) continue;
    }
    out.push(contact);
  }
  return { contacts: out, snapshot };
}

const sortKey = (contact: StoredContact, field: SortField): string | number => {
  switch (field) {
    case "name":
      return `${contact.firstName} ${contact.lastName}`.trim().toLowerCase() || contact.email;
    case "customerSince":
      return contact.customerSince ? new Date(contact.customerSince).getTime() : 0;
    case "updated_on":
      return new Date(contact.updatedOn).getTime();
    case "createdAt":
      return new Date(contact.createdAt).getTime();
    default:
      return String(contact[field] ?? "").toLowerCase();
  }
};

/** Letters compare by their base (é as e), case-insensitively, digits numerically. */
const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Sorted by `field` (ties by email, so pages are stable). */
export function sortContacts(contacts: StoredContact[], field: SortField, descending: boolean): StoredContact[] {
  const keyed = contacts.map((contact) => ({ contact, key: sortKey(contact, field) }));
  keyed.sort((a, b) => {
    const byKey =
      typeof a.key === "number" && typeof b.key === "number"
        ? a.key - b.key
        : collator.compare(String(a.key), String(b.key));
    const byEmail = a.contact.email < b.contact.email ? -1 : a.contact.email > b.contact.email ? 1 : 0;
    const order = byKey !== 0 ? byKey : byEmail;
    return descending ? -order : order;
  });
  return keyed.map((k) => k.contact);
}

/** Below this many matches, sorting them is cheaper than filtering the project's kept order. */
const SORT_DIRECT_MAX = 5_000;
/** Each snapshot's whole project in a sort order, as of the snapshot's version. */
const projectOrders = new WeakMap<ProjectSnapshot, Map<string, { version: number; contacts: StoredContact[] }>>();

/**
 * `matched` sorted as `sortContacts` does. A large set is taken in the order of the whole project,
 * sorted once per snapshot version and sort and kept: the next page, or another filter, sorts nothing
 * (sorting 50,000 contacts by name took over a second on a loaded 2-core machine).
 */
export function sortMatched(matched: Matched, field: SortField, descending: boolean): readonly StoredContact[] {
  const { contacts, snapshot } = matched;
  if (contacts.length < SORT_DIRECT_MAX) return sortContacts(contacts, field, descending);
  let orders = projectOrders.get(snapshot);
  if (!orders) {
    orders = new Map();
    projectOrders.set(snapshot, orders);
  }
  const key = `${field}:${descending}`;
  let order = orders.get(key);
  if (order?.version !== snapshot.version) {
    orders.clear();
    const all = [...snapshot.entries.values()].map((entry) => entry.contact);
    order = { version: snapshot.version, contacts: sortContacts(all, field, descending) };
    orders.set(key, order);
  }
  if (contacts.length === snapshot.entries.size) return order.contacts;
  const keep = new Set(contacts);
  return order.contacts.filter((contact) => keep.has(contact));
}

export function isSortField(value: string): value is SortField {
  return (SORT_FIELDS as readonly string[]).includes(value);
}

/**
 * Whether one contact matches a condition tree (a group, or one rule taken as a group of one), for
 * the automations' condition steps. @throws CR_ERR_BAD_REQUEST for an invalid tree, NOT_FOUND for no contact.
 */
export async function matchContact(
  deps: Pick<ContactsDeps, "stores">,
  scope: Scope,
  input: { contactId: string; query: unknown },
): Promise<boolean> {
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const fields = segmentFields(settings);
  const raw = input.query as { rules?: unknown } | null;
  const tree = parseTree(
    raw && typeof raw === "object" && !Array.isArray(raw.rules) ? { combinator: "and", rules: [raw] } : raw,
    fields,
  );
  const contact = input.contactId.length <= 64 ? await deps.stores.contacts.get(scope, input.contactId) : null;
  if (!contact) throw appError("NOT_FOUND", "No such contact.");
  const view = segmentView(
    stateOf(contact),
    settings.interactionTypes.map((t) => t.key),
  );
  return matches(tree, fields, view);
}
