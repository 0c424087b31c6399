import { CONDITION_OPS } from "@crafter/workflow-language";
import type { CustomField, KeyLabel, SegmentQuery, SegmentRule } from "../../api/contacts/types";
import { CONSENT_STATUSES, CONTACT_SOURCES, CUSTOMER_KINDS } from "../../api/contacts/types";

/**
 * The segment builder's fields and operators, and the conversion between react-querybuilder's
 * query (ids, list values typed as "a, b") and the contract's stored query (`{ combinator, rules }`,
 * `Rule { field, operator, value }`, operators exactly the spec's 11). Pure; unit tested in
 * segment-query.test.ts.
 */

/** The spec's 11 condition operators (the list workflow conditions use too). */
export const SEGMENT_OPERATORS = CONDITION_OPS;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

export const OPERATOR_LABELS: Record<SegmentOperator, string> = {
  "==": "is",
  "!=": "is not",
  ">": "greater than",
  "<": "less than",
  ">=": "at least",
  "<=": "at most",
  hasValue: "has a value",
  in: "is one of",
  "not in": "is none of",
  contains: "contains",
  notContains: "does not contain",
};

export type FieldKind = "text" | "number" | "date" | "select" | "boolean" | "list";

/** The operators each kind of field takes (the service's OPERATORS_BY_KIND). Lists (tags) take all 11. */
export const OPERATORS_BY_KIND: Record<FieldKind, readonly SegmentOperator[]> = {
  text: ["==", "!=", "hasValue", "in", "not in", "contains", "notContains"],
  select: ["==", "!=", "hasValue", "in", "not in"],
  number: ["==", "!=", ">", "<", ">=", "<=", "hasValue", "in", "not in"],
  date: ["==", "!=", ">", "<", ">=", "<=", "hasValue"],
  boolean: ["==", "!=", "hasValue"],
  list: SEGMENT_OPERATORS,
};

export interface SegmentField {
  name: string;
  label: string;
  kind: FieldKind;
  group: "Contact" | "Custom fields" | "Interactions";
  /** The choices of a select field. */
  values?: { name: string; label: string }[];
}

const options = (values: readonly string[]) => values.map((value) => ({ name: value, label: value }));

/** Every field a segment can test: contact fields, tags, consent, interaction counts, custom fields. */
export function segmentFields(
  custom: readonly CustomField[],
  interactionTypes: readonly KeyLabel[],
  contactTypes: readonly KeyLabel[],
): SegmentField[] {
  return [
    { name: "email", label: "Email", kind: "text", group: "Contact" },
    { name: "firstName", label: "First name", kind: "text", group: "Contact" },
    { name: "lastName", label: "Last name", kind: "text", group: "Contact" },
    { name: "phone", label: "Phone", kind: "text", group: "Contact" },
    { name: "company", label: "Company", kind: "text", group: "Contact" },
    {
      name: "customerKind",
      label: "Customer kind",
      kind: "select",
      group: "Contact",
      values: CUSTOMER_KINDS.map((kind) => ({ name: kind.value, label: kind.label })),
    },
    {
      name: "contactType",
      label: "Contact type",
      kind: "select",
      group: "Contact",
      values: contactTypes.map((type) => ({ name: type.key, label: type.label })),
    },
    { name: "tags", label: "Tags", kind: "list", group: "Contact" },
    { name: "consent", label: "Consent", kind: "select", group: "Contact", values: options(CONSENT_STATUSES) },
    { name: "source", label: "Source", kind: "select", group: "Contact", values: options(CONTACT_SOURCES) },
    { name: "customerSince", label: "Customer since", kind: "date", group: "Contact" },
    { name: "updated_on", label: "Updated on", kind: "date", group: "Contact" },
    // Kept by a connected store (Shopify).
    { name: "orderCount", label: "Orders", kind: "number", group: "Contact" },
    { name: "totalSpent", label: "Total spent", kind: "number", group: "Contact" },
    ...interactionTypes.map((type) => ({
      name: `interactions.${type.key}`,
      label: `${type.label} (count)`,
      kind: "number" as const,
      group: "Interactions" as const,
    })),
    ...custom.map((field) => ({
      name: `custom.${field.key}`,
      label: field.label,
      kind: field.type as FieldKind,
      group: "Custom fields" as const,
      values: field.type === "select" ? options(field.options ?? []) : undefined,
    })),
  ];
}

export function isGroup(node: SegmentRule | SegmentQuery): node is SegmentQuery {
  return Array.isArray((node as SegmentQuery).rules);
}

/** The editor react-querybuilder shows for a field and operator. */
export function editorFor(field: SegmentField | undefined, operator: string): "text" | "select" | "multiselect" {
  if (operator === "hasValue") return "select";
  if (!field) return "text";
  if (field.kind === "boolean") return "select";
  if (field.kind === "select" && field.values?.length) {
    return operator === "in" || operator === "not in" ? "multiselect" : "select";
  }
  return "text";
}

/** The value a new rule starts with (hasValue: "true", i.e. "has a value"). */
export function defaultValueFor(field: SegmentField | undefined, operator: string): unknown {
  if (operator === "hasValue" || field?.kind === "boolean") return "true";
  if ((operator === "in" || operator === "not in") && field?.kind === "select") return [];
  if (field?.kind === "select" && field.values?.length) return field.values[0]!.name;
  return "";
}

const splitList = (value: unknown): string[] =>
  (Array.isArray(value) ? value.map(String) : String(value ?? "").split(","))
    .map((item) => item.trim())
    .filter(Boolean);

/** One rule's value as the service stores it: lists for in/not in, numbers, booleans. */
export function storedValue(field: SegmentField | undefined, operator: string, value: unknown): unknown {
  if (operator === "hasValue") return !(value === false || value === "false");
  const kind = field?.kind ?? "text";
  if (operator === "in" || operator === "not in") {
    const items = splitList(value);
    return kind === "number" ? items.map(Number) : items;
  }
  if (kind === "boolean") return value === true || value === "true";
  if (kind === "number" || ((kind === "list" || field?.group === "Interactions") && /^[<>]=?$/.test(operator))) {
    const n = Number(String(value ?? "").trim());
    return String(value ?? "").trim() === "" || !Number.isFinite(n) ? value : n;
  }
  return typeof value === "string" ? value.trim() : value;
}

/** The builder's query → the contract's stored query (no ids, typed values, only the spec's operators). */
export function toStoredQuery(query: SegmentQuery, fields: readonly SegmentField[]): SegmentQuery {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const convert = (group: SegmentQuery): SegmentQuery => {
    const out: SegmentQuery = {
      combinator: group.combinator === "or" ? "or" : "and",
      rules: group.rules.map((node) =>
        isGroup(node)
          ? convert(node)
          : {
              field: node.field,
              operator: node.operator,
              value: storedValue(byName.get(node.field), node.operator, node.value),
            },
      ),
    };
    if (group.not) out.not = true;
    return out;
  };
  return convert(query);
}

/** A stored query → the builder's (lists shown as lists for multiselects, "a, b" for text, booleans as strings). */
export function toBuilderQuery(query: SegmentQuery | undefined, fields: readonly SegmentField[]): SegmentQuery {
  if (!query || !Array.isArray(query.rules)) return emptyQuery();
  const byName = new Map(fields.map((field) => [field.name, field]));
  const convert = (group: SegmentQuery): SegmentQuery => ({
    combinator: group.combinator === "or" ? "or" : "and",
    ...(group.not ? { not: true } : {}),
    rules: group.rules.map((node) => {
      if (isGroup(node)) return convert(node);
      const field = byName.get(node.field);
      let value = node.value;
      if (typeof value === "boolean") value = String(value);
      else if (Array.isArray(value) && editorFor(field, node.operator) !== "multiselect") value = value.join(", ");
      else if (typeof value === "number") value = String(value);
      return { field: node.field, operator: node.operator, value };
    }),
  });
  return convert(query);
}

export function emptyQuery(): SegmentQuery {
  return { combinator: "and", rules: [] };
}

/** Rules that cannot be evaluated yet: a value is missing, or an operator is not one of the spec's. */
export function incompleteRules(query: SegmentQuery): number {
  let count = 0;
  const visit = (group: SegmentQuery) => {
    for (const node of group.rules) {
      if (isGroup(node)) visit(node);
      else if (!(SEGMENT_OPERATORS as readonly string[]).includes(node.operator)) count++;
      else if (node.operator !== "hasValue") {
        const empty = Array.isArray(node.value)
          ? node.value.length === 0
          : node.value === undefined || node.value === null || String(node.value).trim() === "";
        if (empty) count++;
      }
    }
  };
  visit(query);
  return count;
}

/** Number of rules in a query, all groups included. */
export function ruleCount(query: SegmentQuery): number {
  return query.rules.reduce((sum, node) => sum + (isGroup(node) ? ruleCount(node) : 1), 0);
}
