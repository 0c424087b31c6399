import { emailError, normalizeEmail } from "@crafter/kit";
import { canonicalTimeZone } from "@crafter/time";
import {
  CONSENT_STATUSES,
  type ConsentStatus,
  CUSTOMER_KINDS,
  type CustomerKind,
  type FieldDefinition,
} from "./fields";

/** A contact read from one CSV row, ready to store. */
export interface ImportedContact {
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  company?: string;
  customerKind?: CustomerKind;
  contactType?: string;
  tags: string[];
  consent: ConsentStatus;
  /** When the file says the consent was given or withdrawn, if it does. */
  consentAt?: Date;
  customerSince?: Date;
  /** The contact's IANA zone, canonical. */
  timeZone?: string;
  custom: Record<string, string | number | boolean | Date>;
}

/** A refused row: why, and the cell that was refused when one was. */
export type RowResult = { ok: true; contact: ImportedContact } | { ok: false; reason: string; value?: string };

/** Longest cell accepted, in characters, whatever the field. */
export const MAX_CELL = 2000;

// Yes and no in the languages European exports are written in (German, French, Spanish, Italian,
// Dutch, Portuguese, the Nordic languages, Polish), accents folded.
const TRUE = new Set([
  "true",
  "yes",
  "y",
  "1",
  "subscribed",
  "opted in",
  "optin",
  "opt-in",
  "granted",
  "accepted",
  "ja",
  "oui",
  "si",
  "sim",
  "tak",
  "wahr",
  "vrai",
  "angemeldet",
  "abonniert",
  "inscrit",
]);
const FALSE = new Set([
  "false",
  "no",
  "n",
  "0",
  "not subscribed",
  "unsubscribed",
  "opted out",
  "optout",
  "opt-out",
  "declined",
  "nein",
  "non",
  "nee",
  "nej",
  "nei",
  "nao",
  "nie",
  "falsch",
  "faux",
  "abgemeldet",
  "desinscrit",
]);

function parseBoolean(value: string): boolean | undefined {
  const v = value
    .trim()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

function parseDate(value: string): Date | undefined {
  const t = Date.parse(value.trim());
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** A customer kind cell (business, b2b, personal, b2c…), or undefined when it names none. */
export function customerKindOf(cell: string): CustomerKind | undefined {
  const kind = cell.trim().toLowerCase();
  const mapped =
    kind.startsWith("bus") || kind === "b2b"
      ? "business"
      : kind.startsWith("per") || kind === "b2c"
        ? "personal"
        : kind;
  return (CUSTOMER_KINDS as readonly string[]).includes(mapped) ? (mapped as CustomerKind) : undefined;
}

/** Tags from a cell: split on commas or semicolons, quotes stripped (Mailchimp writes "a","b"). */
export function parseTags(value: string): string[] {
  const seen = new Map<string, string>();
  for (const raw of value.split(/[,;]/)) {
    const tag = raw.replace(/^[\s"']+|[\s"']+$/g, "");
    if (tag !== "" && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  }
  return [...seen.values()];
}

/** An explicit consent cell: a status name, or a yes/no (Shopify's Accepts Email Marketing). */
function explicitConsent(value: string): ConsentStatus | undefined {
  const v = value.trim().toLowerCase();
  if ((CONSENT_STATUSES as readonly string[]).includes(v)) return v as ConsentStatus;
  if (v === "cleaned" || v === "bounce" || v === "hard bounce") return "bounced";
  if (v === "spam" || v === "spam report" || v === "complaint") return "complained";
  const b = parseBoolean(v);
  if (b === true) return "subscribed";
  if (b === false) return "unsubscribed";
  return undefined;
}

/**
 * The consent a row proves. `subscribed` only when the file says the person opted in (a consent cell
 * that says so, Mailchimp's OPTIN_TIME/CONFIRM_TIME, HubSpot's legal basis "consent"); withdrawals
 * and bounces win over opt-ins; anything else is `pending` (never emailed until confirmed).
 */
export function consentOf(cells: Readonly<Record<string, string>>): { status: ConsentStatus; at?: Date } {
  const present = (target: string) => (cells[target] ?? "").trim() !== "";
  if (present("consent.bouncedAt")) return { status: "bounced", at: parseDate(cells["consent.bouncedAt"] ?? "") };
  if (present("consent.unsubscribedAt")) {
    return { status: "unsubscribed", at: parseDate(cells["consent.unsubscribedAt"] ?? "") };
  }
  if (parseBoolean(cells["consent.unsubscribedAll"] ?? "") === true) return { status: "unsubscribed" };
  const explicit = present("consent") ? explicitConsent(cells.consent ?? "") : undefined;
  if (explicit) return { status: explicit };
  if (present("consent.optedInAt")) return { status: "subscribed", at: parseDate(cells["consent.optedInAt"] ?? "") };
  if ((cells["consent.legalBasis"] ?? "").toLowerCase().includes("consent")) return { status: "subscribed" };
  return { status: "pending" };
}

/**
 * Reads one row into a contact, or says why it cannot be imported (the import reports it with its
 * line number; good rows are never held back by a bad one).
 * @param cells target → cell text, from the mapping (skipped columns absent).
 * @param fields the catalogue by key; `contactTypes` the settings list of contact types.
 */
export function readRow(
  cells: Readonly<Record<string, string>>,
  fields: ReadonlyMap<string, FieldDefinition>,
  contactTypes: readonly string[],
): RowResult {
  for (const [target, value] of Object.entries(cells)) {
    if (value.length > MAX_CELL)
      return {
        ok: false,
        reason: `${labelOf(target, fields)} is longer than ${MAX_CELL} characters`,
        value: `${value.slice(0, 40)}…`,
      };
  }
  const rawEmail = cells.email ?? "";
  const emailProblem = emailError(rawEmail);
  if (emailProblem)
    return {
      ok: false,
      reason: rawEmail.trim() === "" ? emailProblem : `${emailProblem}: ${rawEmail.trim()}`,
      value: rawEmail.trim() || undefined,
    };
  const contact: ImportedContact = { email: normalizeEmail(rawEmail), tags: [], consent: "pending", custom: {} };

  for (const name of ["firstName", "lastName", "phone", "company"] as const) {
    const value = (cells[name] ?? "").trim();
    if (value === "") continue;
    const max = fields.get(name)?.maxLength ?? 200;
    if (value.length > max)
      return { ok: false, reason: `${labelOf(name, fields)} is longer than ${max} characters`, value };
    contact[name] = value;
  }
  const zone = (cells.timeZone ?? "").trim();
  if (zone !== "") {
    const known = canonicalTimeZone(zone);
    if (!known) return { ok: false, reason: `Unknown time zone: ${zone}`, value: zone };
    contact.timeZone = known;
  }
  const kind = (cells.customerKind ?? "").trim().toLowerCase();
  if (kind !== "") {
    const mapped = customerKindOf(kind);
    if (!mapped) return { ok: false, reason: `Unknown customer kind: ${kind}`, value: kind };
    contact.customerKind = mapped;
  }
  const type = (cells.contactType ?? "").trim();
  if (type !== "") {
    const known = contactTypes.find((t) => t.toLowerCase() === type.toLowerCase());
    if (!known) return { ok: false, reason: `Unknown contact type: ${type}`, value: type };
    contact.contactType = known;
  }
  if (cells.tags) {
    contact.tags = parseTags(cells.tags);
    const long = contact.tags.find((tag) => tag.length > 50);
    if (long) return { ok: false, reason: `Tag is longer than 50 characters: ${long.slice(0, 20)}…`, value: long };
  }
  if ((cells.customerSince ?? "").trim() !== "") {
    const since = parseDate(cells.customerSince ?? "");
    if (!since)
      return { ok: false, reason: `Customer since is not a date: ${cells.customerSince}`, value: cells.customerSince };
    contact.customerSince = since;
  }
  const consent = consentOf(cells);
  contact.consent = consent.status;
  if (consent.at) contact.consentAt = consent.at;

  for (const [target, raw] of Object.entries(cells)) {
    if (!target.startsWith("custom.")) continue;
    const field = fields.get(target);
    const value = raw.trim();
    if (!field || value === "") continue;
    const name = target.slice("custom.".length);
    switch (field.kind) {
      case "number": {
        const n = Number(value.replace(/,/g, ""));
        if (!Number.isFinite(n)) return { ok: false, reason: `${field.label} is not a number: ${value}`, value };
        contact.custom[name] = n;
        break;
      }
      case "date": {
        const d = parseDate(value);
        if (!d) return { ok: false, reason: `${field.label} is not a date: ${value}`, value };
        contact.custom[name] = d;
        break;
      }
      case "boolean": {
        const b = parseBoolean(value);
        if (b === undefined) return { ok: false, reason: `${field.label} is not yes or no: ${value}`, value };
        contact.custom[name] = b;
        break;
      }
      case "select": {
        const option = field.options?.find((o) => o.toLowerCase() === value.toLowerCase());
        if (!option) return { ok: false, reason: `Unknown option of ${field.label}: ${value}`, value };
        contact.custom[name] = option;
        break;
      }
      default:
        if (value.length > (field.maxLength ?? 1000)) {
          return {
            ok: false,
            reason: `${field.label} is longer than ${field.maxLength ?? 1000} characters`,
            value: `${value.slice(0, 40)}…`,
          };
        }
        contact.custom[name] = value;
    }
  }
  return { ok: true, contact };
}

function labelOf(target: string, fields: ReadonlyMap<string, FieldDefinition>): string {
  return fields.get(target)?.label ?? target;
}
