import { normalizeEmail } from "@crafter/kit";
import type { ConsentStatus, FieldDefinition } from "./fields";
import { customerKindOf, readRow } from "./import-row";

/**
 * What an import would do with a mapping, row by row, before it runs (pure): the consent each row
 * would carry, the rows refused and why, the emails repeated inside the file, and — kept apart from
 * the refused rows — the values of select columns (contact type, customer kind, a custom select)
 * that are not in the field's list, so the mapping step can offer to add them, map the column to a
 * custom field or skip it instead of failing those rows.
 */

/** Distinct unknown values kept per column (the rest is counted as `more`). */
export const MAX_UNKNOWN_VALUES = 50;
/** Refused rows kept with their line, value and reason. */
export const MAX_CHECK_ERRORS = 100;

export interface RowError {
  line: number;
  email: string;
  value: string;
  reason: string;
}

export interface UnknownValues {
  target: string;
  values: Array<{ value: string; count: number }>;
  more: boolean;
  rows: number;
}

export interface ImportCheckResult {
  rows: number;
  consent: Record<ConsentStatus, number>;
  failing: number;
  duplicatesInFile: number;
  unknown: UnknownValues[];
  errors: RowError[];
}

/**
 * Whether a cell is in a select field's list, by target: `contactType` (the project's contact
 * types, case-insensitive), `customerKind` (business or personal, with their usual spellings), a
 * custom select (its options). Undefined for a target that is not a select.
 */
export function selectKnows(
  target: string,
  fields: ReadonlyMap<string, FieldDefinition>,
  contactTypes: readonly string[],
): ((cell: string) => boolean) | undefined {
  if (target === "contactType") {
    const known = new Set(contactTypes.map((t) => t.toLowerCase()));
    return (cell) => known.has(cell.trim().toLowerCase());
  }
  if (target === "customerKind") return (cell) => customerKindOf(cell) !== undefined;
  const field = fields.get(target);
  if (target.startsWith("custom.") && field?.kind === "select") {
    const options = new Set((field.options ?? []).map((o) => o.toLowerCase()));
    return (cell) => options.has(cell.trim().toLowerCase());
  }
  return undefined;
}

/** Accumulates the check of an import's rows, in file order. */
export class ImportCheck {
  private readonly seen = new Set<string>();
  private readonly unknownByTarget = new Map<
    string,
    { values: Map<string, { value: string; count: number }>; rows: number }
  >();
  private readonly selects: Array<[string, (cell: string) => boolean]>;
  readonly result: ImportCheckResult = {
    rows: 0,
    consent: { pending: 0, subscribed: 0, unsubscribed: 0, bounced: 0, complained: 0 },
    failing: 0,
    duplicatesInFile: 0,
    unknown: [],
    errors: [],
  };

  constructor(
    targets: ReadonlyArray<string | null>,
    private readonly fields: ReadonlyMap<string, FieldDefinition>,
    private readonly contactTypes: readonly string[],
  ) {
    this.selects = [];
    for (const target of targets) {
      const knows = target ? selectKnows(target, fields, contactTypes) : undefined;
      if (target && knows) this.selects.push([target, knows]);
    }
  }

  /** One row: `cells` is target → cell text (skipped columns absent). */
  add(line: number, cells: Record<string, string>): void {
    this.result.rows++;
    const rest = { ...cells };
    for (const [target, knows] of this.selects) {
      const cell = (cells[target] ?? "").trim();
      if (cell === "" || knows(cell)) continue;
      let entry = this.unknownByTarget.get(target);
      if (!entry) {
        entry = { values: new Map(), rows: 0 };
        this.unknownByTarget.set(target, entry);
      }
      entry.rows++;
      const key = cell.toLowerCase();
      const value = entry.values.get(key);
      if (value) value.count++;
      else entry.values.set(key, { value: cell, count: 1 });
      // Whatever the user chooses for the column, the row itself is judged without it.
      delete rest[target];
    }
    const read = readRow(rest, this.fields, this.contactTypes);
    if (!read.ok) {
      this.result.failing++;
      if (this.result.errors.length < MAX_CHECK_ERRORS) {
        this.result.errors.push({
          line,
          email: (cells.email ?? "").slice(0, 254),
          value: read.value ?? "",
          reason: read.reason,
        });
      }
      return;
    }
    const email = normalizeEmail(read.contact.email);
    if (this.seen.has(email)) {
      this.result.duplicatesInFile++;
      return;
    }
    this.seen.add(email);
    this.result.consent[read.contact.consent]++;
  }

  /** The result, unknown values most frequent first. */
  finish(): ImportCheckResult {
    this.result.unknown = [...this.unknownByTarget].map(([target, entry]) => {
      const values = [...entry.values.values()].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
      return {
        target,
        values: values.slice(0, MAX_UNKNOWN_VALUES),
        more: values.length > MAX_UNKNOWN_VALUES,
        rows: entry.rows,
      };
    });
    return this.result;
  }
}
