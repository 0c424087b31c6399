import type { CustomField } from "../../api/contacts/types";

/**
 * The CSV import's column → field mapping as the page edits it. The service guesses it from the
 * headers (Mailchimp and HubSpot layouts, custom fields by label) and answers it as the import's
 * `fields` (an object header → target, the contract's shape) or as a list in header order (bare
 * targets or `{ header, target }` entries); the page keeps one target per column index and sends
 * back the shape it got. Pure; unit tested in mapping.test.ts.
 */

export interface TargetOption {
  value: string;
  label: string;
  group: "Contact" | "Consent" | "Custom fields";
}

export const BUILT_IN_TARGETS: readonly TargetOption[] = [
  { value: "email", label: "Email", group: "Contact" },
  { value: "firstName", label: "First name", group: "Contact" },
  { value: "lastName", label: "Last name", group: "Contact" },
  { value: "phone", label: "Phone", group: "Contact" },
  { value: "company", label: "Company", group: "Contact" },
  { value: "customerKind", label: "Customer kind", group: "Contact" },
  { value: "contactType", label: "Contact type", group: "Contact" },
  { value: "tags", label: "Tags", group: "Contact" },
  { value: "customerSince", label: "Customer since", group: "Contact" },
  { value: "consent", label: "Consent status", group: "Consent" },
  { value: "consent.optedInAt", label: "Opted in at", group: "Consent" },
  { value: "consent.unsubscribedAt", label: "Unsubscribed at", group: "Consent" },
  { value: "consent.bouncedAt", label: "Bounced at", group: "Consent" },
  { value: "consent.unsubscribedAll", label: "Unsubscribed from all email", group: "Consent" },
  { value: "consent.legalBasis", label: "Legal basis", group: "Consent" },
];

/** Every target a column may map to: built-ins, consent evidence, custom fields. */
export function targetOptions(custom: readonly CustomField[], extra: readonly string[] = []): TargetOption[] {
  const options: TargetOption[] = [
    ...BUILT_IN_TARGETS,
    ...custom.map((field) => ({ value: `custom.${field.key}`, label: field.label, group: "Custom fields" as const })),
  ];
  for (const value of extra) {
    if (value && !options.some((option) => option.value === value)) {
      options.push({ value, label: value, group: value.startsWith("custom.") ? "Custom fields" : "Contact" });
    }
  }
  return options;
}

/** A column's target; null: the column is not imported. */
export type ColumnMapping = Array<string | null>;

/** The service's mapping (list or object) as one target per header. */
export function mappingFromServer(headers: readonly string[], server: unknown): ColumnMapping {
  if (Array.isArray(server)) {
    // Entries `{ header, target }` in header order, or bare targets aligned with the headers.
    return headers.map((_, index) => {
      const entry = server[index];
      const value = entry && typeof entry === "object" ? (entry as { target?: unknown }).target : entry;
      return typeof value === "string" && value ? value : null;
    });
  }
  if (server && typeof server === "object") {
    const record = server as Record<string, unknown>;
    return headers.map((header) => {
      const value = record[header];
      return typeof value === "string" && value ? value : null;
    });
  }
  return headers.map(() => null);
}

/** The mapping in the shape the service sent (`list` when it sent a list). */
export type MappingShape = "list" | "entries" | "object";

/** Which shape the service sent its mapping in. */
export function mappingShape(server: unknown): MappingShape {
  if (!Array.isArray(server)) return "object";
  return server.some((entry) => entry && typeof entry === "object") ? "entries" : "list";
}

export function mappingToServer(
  headers: readonly string[],
  mapping: ColumnMapping,
  shape: MappingShape,
): ColumnMapping | Array<{ header: string; target: string | null }> | Record<string, string | null> {
  if (shape === "list") return headers.map((_, index) => mapping[index] ?? null);
  if (shape === "entries") return headers.map((header, index) => ({ header, target: mapping[index] ?? null }));
  return Object.fromEntries(headers.map((header, index) => [header, mapping[index] ?? null]));
}

/** Sets one column's target; a target already used by another column is taken from it (one column per field). */
export function assignTarget(mapping: ColumnMapping, column: number, target: string | null): ColumnMapping {
  return mapping.map((current, index) => {
    if (index === column) return target;
    return target !== null && current === target ? null : current;
  });
}

/** What blocks the import: the email must be mapped (it is how contacts are told apart). */
export function mappingProblems(mapping: ColumnMapping): string[] {
  return mapping.includes("email") ? [] : ["Map a column to Email: contacts are matched by their email."];
}

/** Preview rows (lists or objects) as lists aligned with the headers. */
export function previewRows(headers: readonly string[], preview: unknown): string[][] {
  if (!Array.isArray(preview)) return [];
  return preview.map((row) => {
    if (Array.isArray(row)) return headers.map((_, index) => String(row[index] ?? ""));
    if (row && typeof row === "object") {
      const record = row as Record<string, unknown>;
      return headers.map((header) => String(record[header] ?? ""));
    }
    return headers.map(() => "");
  });
}

/** The upload limit of the contract (`POST /api/contacts/imports`, ≤ 20 MB). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** A clear message for a file the service would refuse, or null. */
export function fileProblem(file: { name: string; size: number }): string | null {
  if (file.size === 0) return "This file is empty.";
  if (file.size > MAX_IMPORT_BYTES) {
    const mb = (file.size / 1024 / 1024).toFixed(1);
    return `This file is ${mb} MB; imports take CSV files of at most 20 MB. Split it and import the parts.`;
  }
  if (!/\.(csv|txt)$/i.test(file.name)) return "Choose a CSV file (.csv).";
  return null;
}

/** Percent done of an import, 0–100 (0 while the total is unknown). */
export function importPercent(result: { processed?: number; total?: number } | null | undefined): number {
  if (!result?.total) return 0;
  return Math.min(100, Math.floor(((result.processed ?? 0) / result.total) * 100));
}

const plurals = new Intl.PluralRules("en");
const numbers = new Intl.NumberFormat("en");

/** "1 row", "2 rows", "1,200 rows": the count formatted and the noun by English plural rules. */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${numbers.format(count)} ${plurals.select(count) === "one" ? one : other}`;
}

/**
 * A custom field key for a column (letters, digits, - and _; at most 40; unique among `taken`):
 * "Lifecycle Stage" → "lifecycleStage", then "lifecycleStage2"…
 */
export function customFieldKeyFor(header: string, taken: readonly string[]): string {
  const words = header
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const base =
    words
      .map((word, i) => (i === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
      .join("")
      .slice(0, 36) || "column";
  const used = new Set(taken.map((key) => key.toLowerCase()));
  let key = base;
  for (let n = 2; used.has(key.toLowerCase()); n++) key = `${base}${n}`;
  return key;
}

/** A settings key for a value added to a list (contact types): the value's letters and digits, `_` between. */
export function listKeyFor(value: string, taken: readonly string[]): string {
  const base =
    value
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 36) || "value";
  const used = new Set(taken.map((key) => key.toLowerCase()));
  let key = base;
  for (let n = 2; used.has(key.toLowerCase()); n++) key = `${base}${n}`;
  return key;
}
