import { CONDITION_OPS } from "@crafter/workflow-language";
import type { FieldDefinition, FieldKind } from "./fields";

/**
 * Segments: a tree of conditions over contact fields, custom fields, tags, consent and interactions,
 * with the spec's 11 operators, nested with and/or (react-querybuilder's JSON shape, so the builder's
 * output is stored as is).
 *
 * Evaluation is one pure function over a contact. The database narrows first: `requiredFacets` lists
 * the facets (indexed "field:value" strings) every match must carry, which the database matches by
 * indexed equality (docs/adr/0001); the tree then runs over those candidates only (docs/adr/0002).
 */

/** The spec's 11 condition operators, the same list workflow conditions use. */
export const OPERATORS = CONDITION_OPS;
export type Operator = (typeof OPERATORS)[number];

export interface SegmentRule {
  field: string;
  operator: Operator;
  /** A string, number or boolean; a list for `in` / `not in`; true/false for `hasValue`. */
  value?: unknown;
}

export interface SegmentGroup {
  combinator: "and" | "or";
  not?: boolean;
  rules: Array<SegmentRule | SegmentGroup>;
}

/** The operators each kind of field takes. Lists compare their length with > < >= <=. */
export const OPERATORS_BY_KIND: Record<FieldKind, readonly Operator[]> = {
  text: ["==", "!=", "hasValue", "in", "not in", "contains", "notContains"],
  select: ["==", "!=", "hasValue", "in", "not in"],
  number: ["==", "!=", ">", "<", ">=", "<=", "hasValue", "in", "not in"],
  date: ["==", "!=", ">", "<", ">=", "<=", "hasValue"],
  boolean: ["==", "!=", "hasValue"],
  list: ["==", "!=", ">", "<", ">=", "<=", "hasValue", "in", "not in", "contains", "notContains"],
};

/** Deepest nesting of groups a segment may have, and most rules in all. */
export const MAX_DEPTH = 5;
export const MAX_RULES = 50;

/** A contact as segments see it: built-in fields at the top, custom field values under `custom`. */
export type SegmentContact = Record<string, unknown> & { custom?: Record<string, unknown> };

export function isGroup(node: SegmentRule | SegmentGroup): node is SegmentGroup {
  return typeof (node as SegmentGroup).combinator === "string" && Array.isArray((node as SegmentGroup).rules);
}

function fieldValue(contact: SegmentContact, key: string): unknown {
  return key.startsWith("custom.") ? contact.custom?.[key.slice("custom.".length)] : contact[key];
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

const text = (value: unknown): string =>
  String(value ?? "")
    .trim()
    .toLowerCase();

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function toTime(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === "string" && value.trim() !== "") {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  if (typeof value === "number") return value;
  return undefined;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  const t = text(value);
  if (["true", "yes", "1"].includes(t)) return true;
  if (["false", "no", "0"].includes(t)) return false;
  return undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Compares two scalars of a kind: negative, 0, positive, or undefined when either is not of the kind. */
function compare(kind: FieldKind, a: unknown, b: unknown): number | undefined {
  if (kind === "number") {
    const x = toNumber(a);
    const y = toNumber(b);
    return x === undefined || y === undefined ? undefined : x - y;
  }
  if (kind === "date") {
    const x = toTime(a);
    const y = toTime(b);
    return x === undefined || y === undefined ? undefined : x - y;
  }
  if (kind === "boolean") {
    const x = toBoolean(a);
    const y = toBoolean(b);
    return x === undefined || y === undefined ? undefined : Number(x) - Number(y);
  }
  return text(a) === text(b) ? 0 : text(a) < text(b) ? -1 : 1;
}

function ordered(operator: Operator, diff: number | undefined): boolean {
  if (diff === undefined) return false;
  switch (operator) {
    case ">":
      return diff > 0;
    case "<":
      return diff < 0;
    case ">=":
      return diff >= 0;
    case "<=":
      return diff <= 0;
    default:
      return false;
  }
}

function evaluateList(operator: Operator, items: unknown[], value: unknown): boolean {
  const has = (x: unknown) => items.some((item) => text(item) === text(x));
  switch (operator) {
    case "==":
    case "contains":
      return has(value);
    case "!=":
    case "notContains":
      return !has(value);
    case "in":
      return list(value).some(has);
    case "not in":
      return !list(value).some(has);
    default:
      return ordered(operator, compare("number", items.length, value));
  }
}

/** Whether one rule holds for a contact. A missing value fails every test but the negative ones. */
export function evaluateRule(rule: SegmentRule, field: FieldDefinition, contact: SegmentContact): boolean {
  const actual = fieldValue(contact, field.key);
  if (rule.operator === "hasValue") return isEmpty(actual) !== (toBoolean(rule.value) ?? true);
  if (field.kind === "list") return evaluateList(rule.operator, isEmpty(actual) ? [] : list(actual), rule.value);
  const negative = rule.operator === "!=" || rule.operator === "not in" || rule.operator === "notContains";
  if (isEmpty(actual)) return negative;
  switch (rule.operator) {
    case "==":
      return compare(field.kind, actual, rule.value) === 0;
    case "!=":
      return compare(field.kind, actual, rule.value) !== 0;
    case "in":
      return list(rule.value).some((v) => compare(field.kind, actual, v) === 0);
    case "not in":
      return !list(rule.value).some((v) => compare(field.kind, actual, v) === 0);
    case "contains":
      return text(actual).includes(text(rule.value));
    case "notContains":
      return !text(actual).includes(text(rule.value));
    default:
      return ordered(rule.operator, compare(field.kind, actual, rule.value));
  }
}

/**
 * Whether a contact is in the segment. `fields` maps each field key to its definition (see
 * `fieldCatalogue`); the tree must have passed `validateSegment`.
 */
export function matches(
  group: SegmentGroup,
  fields: ReadonlyMap<string, FieldDefinition>,
  contact: SegmentContact,
): boolean {
  const results = group.rules.map((node) => {
    if (isGroup(node)) return matches(node, fields, contact);
    const field = fields.get(node.field);
    return field ? evaluateRule(node, field, contact) : false;
  });
  const combined = group.combinator === "or" ? results.some(Boolean) : results.every(Boolean);
  return group.not ? !combined : combined;
}

/** One problem of a segment tree, with the path of the rule (indexes from the root). */
export interface SegmentProblem {
  path: number[];
  message: string;
}

/** Checks fields, operators, values, depth and size. @returns the problems; empty when valid. */
export function validateSegment(root: SegmentGroup, fields: ReadonlyMap<string, FieldDefinition>): SegmentProblem[] {
  const problems: SegmentProblem[] = [];
  let rules = 0;
  const visit = (group: SegmentGroup, path: number[], depth: number) => {
    if (depth > MAX_DEPTH) {
      problems.push({ path, message: `Groups nest at most ${MAX_DEPTH} deep` });
      return;
    }
    if (group.combinator !== "and" && group.combinator !== "or") {
      problems.push({ path, message: "A group combines its rules with and or or" });
    }
    for (const [index, node] of group.rules.entries()) {
      const at = [...path, index];
      if (isGroup(node)) {
        visit(node, at, depth + 1);
        continue;
      }
      rules++;
      const field = fields.get(node.field);
      if (!field) {
        problems.push({ path: at, message: `Unknown field ${String(node.field)}` });
      } else if (!OPERATORS_BY_KIND[field.kind].includes(node.operator)) {
        problems.push({ path: at, message: `${field.label} does not take the operator ${String(node.operator)}` });
      } else {
        const problem = valueProblem(node, field);
        if (problem) problems.push({ path: at, message: problem });
      }
    }
  };
  visit(root, [], 1);
  if (rules > MAX_RULES) problems.push({ path: [], message: `A segment has at most ${MAX_RULES} rules` });
  return problems;
}

function valueProblem(rule: SegmentRule, field: FieldDefinition): string | undefined {
  if (rule.operator === "hasValue") {
    return rule.value === undefined || toBoolean(rule.value) !== undefined ? undefined : "hasValue takes true or false";
  }
  const values = rule.operator === "in" || rule.operator === "not in" ? rule.value : [rule.value];
  if (!Array.isArray(values) || values.length === 0) return `${field.label}: choose at least one value`;
  const numeric = field.kind === "number" || (field.kind === "list" && [">", "<", ">=", "<="].includes(rule.operator));
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      return `${field.label}: a value is a text, a number or true/false`;
    }
    if (String(value).length > 500) return `${field.label}: a value has at most 500 characters`;
    if (numeric && toNumber(value) === undefined) return `${field.label}: ${String(value)} is not a number`;
    if (field.kind === "date" && toTime(value) === undefined) return `${field.label}: ${String(value)} is not a date`;
    if (field.kind === "boolean" && toBoolean(value) === undefined) return `${field.label}: use true or false`;
    if (field.kind === "select" && field.options && !field.options.some((o) => text(o) === text(value))) {
      return `${field.label}: ${String(value)} is not one of its options`;
    }
  }
  return undefined;
}

/** Field kinds whose values are stored as facets ("key:value", lower case) for indexed equality. */
const FACET_KINDS: ReadonlySet<FieldKind> = new Set(["select", "boolean", "list"]);

/** The facet string of a field's value: `tags:vip`, `consent:subscribed`, `custom.plan:gold`. */
export function facet(key: string, value: unknown): string {
  return `${key}:${text(value)}`;
}

/**
 * The facets every contact of the segment must carry: from the root's AND rules (not negated) that
 * test equality or membership of a select, boolean or list field. The store narrows by them in the
 * database, then `matches` decides. Empty when nothing narrows (the store then reads the project's
 * contacts).
 */
export function requiredFacets(root: SegmentGroup, fields: ReadonlyMap<string, FieldDefinition>): string[] {
  if (root.not) return [];
  // An "or" of one rule is that rule; of several, no single facet is required.
  if (root.combinator === "or" && root.rules.length !== 1) return [];
  const out: string[] = [];
  for (const node of root.rules) {
    if (isGroup(node)) {
      if (node.combinator === "and" || node.rules.length === 1) out.push(...requiredFacets(node, fields));
      continue;
    }
    const field = fields.get(node.field);
    if (!field || !FACET_KINDS.has(field.kind)) continue;
    if (node.operator === "==" || (node.operator === "contains" && field.kind === "list")) {
      if (field.kind === "boolean") {
        const b = toBoolean(node.value);
        if (b !== undefined) out.push(facet(field.key, b));
      } else out.push(facet(field.key, node.value));
    } else if (node.operator === "in" && Array.isArray(node.value) && node.value.length === 1) {
      out.push(facet(field.key, node.value[0]));
    }
  }
  return [...new Set(out)];
}

/**
 * The month-day facet of a date field (`customerSince@md:11-23`, `custom.birthday@md:02-29`): the
 * date's month and day in UTC, so the automations' date_field trigger finds today's birthdays by
 * indexed equality (no `$regex`, no scan).
 */
export function monthDayFacet(key: string, monthDay: string): string {
  return facet(`${key}@md`, monthDay);
}

/** Date fields that get a month-day facet: every date field but `updated_on`, which changes with every save. */
const MONTH_DAY_EXCLUDED: ReadonlySet<string> = new Set(["updated_on"]);

/** The month-day facets of a contact's date fields (see `monthDayFacet`), a part of `contactFacets`. */
export function monthDayFacets(contact: SegmentContact, fields: readonly FieldDefinition[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    if (field.kind !== "date" || MONTH_DAY_EXCLUDED.has(field.key)) continue;
    const time = toTime(fieldValue(contact, field.key));
    if (time !== undefined) out.push(monthDayFacet(field.key, new Date(time).toISOString().slice(5, 10)));
  }
  return out;
}

/** The facets a contact carries, for its `facets` array (see `facet` and `monthDayFacet`). */
export function contactFacets(contact: SegmentContact, fields: readonly FieldDefinition[]): string[] {
  const out = new Set<string>(monthDayFacets(contact, fields));
  for (const field of fields) {
    if (!FACET_KINDS.has(field.kind)) continue;
    const value = fieldValue(contact, field.key);
    if (isEmpty(value)) continue;
    if (field.kind === "boolean") {
      const b = toBoolean(value);
      if (b !== undefined) out.add(facet(field.key, b));
    } else for (const item of list(value)) out.add(facet(field.key, item));
  }
  return [...out];
}
