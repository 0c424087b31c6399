import type { Contact, CustomField } from "../../api/contacts/types";

/**
 * The customer profile table's columns. The user's choice is saved in the user settings'
 * `customerProfileColumns` (spec section 3; defaults name, email, customerSince, updated_on, tags,
 * action); custom fields are columns `custom.<key>`. Pure, unit tested (columns.test.ts).
 */

export const DEFAULT_COLUMNS = ["name", "email", "customerSince", "updated_on", "tags", "action"] as const;

export interface ColumnDef {
  key: string;
  title: string;
  /** The `sort` value of `GET /api/contacts`, when the column sorts on the server. */
  sort?: string;
}

export const BUILT_IN_COLUMNS: readonly ColumnDef[] = [
  { key: "name", title: "Name", sort: "name" },
  { key: "email", title: "Email", sort: "email" },
  { key: "phone", title: "Phone" },
  { key: "company", title: "Company", sort: "company" },
  { key: "customerKind", title: "Customer kind" },
  { key: "contactType", title: "Contact type" },
  { key: "consent", title: "Consent", sort: "consent" },
  { key: "source", title: "Source" },
  { key: "customerSince", title: "Customer since", sort: "customerSince" },
  { key: "updated_on", title: "Updated on", sort: "updated_on" },
  { key: "tags", title: "Tags" },
  { key: "orderCount", title: "Orders" },
  { key: "totalSpent", title: "Total spent" },
  { key: "action", title: "Action" },
];

/** Every column the picker offers: the built-ins, then one per custom field. */
export function columnCatalogue(custom: readonly CustomField[]): ColumnDef[] {
  const action = BUILT_IN_COLUMNS.find((column) => column.key === "action")!;
  return [
    ...BUILT_IN_COLUMNS.filter((column) => column.key !== "action"),
    ...custom.map((field) => ({ key: `custom.${field.key}`, title: field.label })),
    action,
  ];
}

/**
 * The columns to show, in catalogue order: the saved choice without unknown names (a deleted
 * custom field), or the defaults when nothing known is left.
 */
export function visibleColumns(saved: readonly string[] | undefined, catalogue: readonly ColumnDef[]): ColumnDef[] {
  const chosen = new Set(saved?.length ? saved : DEFAULT_COLUMNS);
  const shown = catalogue.filter((column) => chosen.has(column.key));
  return shown.length > 0
    ? shown
    : catalogue.filter((column) => (DEFAULT_COLUMNS as readonly string[]).includes(column.key));
}

/**
 * The list to save after the picker turned `key` on or off. Names the catalogue does not know are
 * kept (a custom field of another project), so one project's picker never drops another's choice.
 * The last visible column cannot be turned off.
 */
export function toggleColumn(
  saved: readonly string[] | undefined,
  catalogue: readonly ColumnDef[],
  key: string,
  on: boolean,
): string[] {
  const current = saved?.length ? [...saved] : [...DEFAULT_COLUMNS];
  if (on) return current.includes(key) ? current : [...current, key];
  const remaining = current.filter((name) => name !== key);
  const stillVisible = catalogue.some((column) => remaining.includes(column.key));
  return stillVisible ? remaining : current;
}

/** When the contact last changed: the contract's `updated_on`, or `updatedOn` from older answers. */
export function updatedOn(contact: Contact): string | null {
  if (contact.updated_on) return contact.updated_on;
  return typeof contact.updatedOn === "string" ? contact.updatedOn : null;
}

/** The text of a column for one contact (the CSV-like view; the table renders tags and actions itself). */
export function cellText(contact: Contact, key: string): string {
  if (key === "name") return [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  if (key === "updated_on") return updatedOn(contact) ?? "";
  if (key.startsWith("custom.")) {
    const value = contact.custom?.[key.slice("custom.".length)];
    if (value === undefined || value === null) return "";
    if (typeof value === "boolean") return value ? "Yes" : "No";
    return String(value);
  }
  if (key === "tags") return (contact.tags ?? []).join(", ");
  if (key === "totalSpent") return moneyText(contact.totalSpent, contact.spentCurrency);
  const value = (contact as unknown as Record<string, unknown>)[key];
  return value === undefined || value === null ? "" : String(value);
}

/** An amount in its ISO 4217 currency ("$1,250.00"); "" when there is none. */
export function moneyText(amount: number | null | undefined, currency: string | undefined): string {
  if (amount === null || amount === undefined) return "";
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return amount.toFixed(2);
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
}
