import { canonicalTimeZone } from "@crafter/time";
import { INVALID_URL_MESSAGE, normalizeUrl } from "./url";

/**
 * The profile types of spec section 3 and the fields of each, shared by the projects service
 * (validation, storage), the workflows service (prefill references) and the web (forms). Pure.
 */
export const PROFILE_TYPES = ["PROJECT", "PRODUCT", "SERVICE", "CAMPAIGN"] as const;
export type ProfileTypeName = (typeof PROFILE_TYPES)[number];

/** text: one line; longText: paragraphs; list: short items; url: the spec's URL rule (scheme-less allowed);
 * date: `YYYY-MM-DD`; slug: lower-case words joined by hyphens; image: one image URL; images: image URLs;
 * timeZone: an IANA time zone name ("Europe/London"), stored in the runtime's canonical spelling. */
export type ProfileFieldKind = "text" | "longText" | "list" | "url" | "date" | "slug" | "image" | "images" | "timeZone";

export interface ProfileFieldDef {
  /** The key in the profile (camelCase of the spec's name). */
  key: string;
  label: string;
  kind: ProfileFieldKind;
  /** Characters (per item for list kinds). */
  max: number;
  /** Items, for list and images. */
  maxItems?: number;
  required?: boolean;
}

/** Fields stored as the profile's own columns; every other field lives in `fields`. */
export const CORE_PROFILE_FIELDS = ["name", "description", "audience", "keywords", "websiteUrl"] as const;
export type CoreProfileField = (typeof CORE_PROFILE_FIELDS)[number];

const name: ProfileFieldDef = { key: "name", label: "Name", kind: "text", max: 120, required: true };
const keywords: ProfileFieldDef = { key: "keywords", label: "Keywords", kind: "list", max: 60, maxItems: 20 };
const audience: ProfileFieldDef = { key: "audience", label: "Audience", kind: "longText", max: 1000 };
const description: ProfileFieldDef = { key: "description", label: "Description", kind: "longText", max: 5000 };
const logoImage: ProfileFieldDef = { key: "logoImage", label: "Logo image", kind: "image", max: 2048 };
const images: ProfileFieldDef = { key: "images", label: "Images", kind: "images", max: 2048, maxItems: 20 };

/** Every field of each profile type, in the spec's order. */
export const PROFILE_FIELD_DEFS: Record<ProfileTypeName, ProfileFieldDef[]> = {
  PROJECT: [
    { ...name, label: "Business name" },
    { ...description, required: true },
    audience,
    keywords,
    { key: "websiteUrl", label: "Website", kind: "url", max: 2048 },
    logoImage,
    images,
    // The physical postal address every marketing email carries in its footer (CAN-SPAM).
    { key: "address", label: "Postal address", kind: "longText", max: 500 },
    // The listing's details (filled from a Google Business Profile location, or by hand).
    { key: "phone", label: "Phone", kind: "text", max: 40 },
    { key: "openingHours", label: "Opening hours", kind: "list", max: 80, maxItems: 21 },
    { key: "categories", label: "Categories", kind: "list", max: 100, maxItems: 10 },
    // The zone of the business's days and hours (schedules, the calendar, automation waits, date
    // triggers); "" (a project made before time zones) reads as UTC.
    { key: "timeZone", label: "Time zone", kind: "timeZone", max: 64 },
  ],
  PRODUCT: [
    name,
    keywords,
    audience,
    description,
    { key: "pageUrl", label: "Page URL", kind: "url", max: 2048 },
    { key: "featureList", label: "Feature list", kind: "list", max: 200, maxItems: 30 },
    { key: "shippingAndReturnsPolicy", label: "Shipping and returns policy", kind: "longText", max: 3000 },
    { key: "seoSummary", label: "SEO summary", kind: "longText", max: 320 },
    { key: "pageSlug", label: "Page slug", kind: "slug", max: 120 },
    { key: "usage", label: "Usage", kind: "longText", max: 3000 },
    logoImage,
    images,
  ],
  SERVICE: [
    name,
    keywords,
    audience,
    description,
    { key: "benefits", label: "Benefits", kind: "list", max: 200, maxItems: 30 },
    { key: "terms", label: "Terms", kind: "longText", max: 3000 },
    { key: "summary", label: "Summary", kind: "longText", max: 1000 },
    { key: "webPageUrl", label: "Web page URL", kind: "url", max: 2048 },
    logoImage,
    images,
  ],
  CAMPAIGN: [
    name,
    audience,
    keywords,
    { key: "tone", label: "Tone", kind: "text", max: 120 },
    description,
    { key: "message", label: "Message", kind: "longText", max: 2000 },
    { key: "startDate", label: "Start date", kind: "date", max: 10 },
    { key: "endDate", label: "End date", kind: "date", max: 10 },
    { key: "objective", label: "Objective", kind: "longText", max: 1000 },
    { key: "slogan", label: "Slogan", kind: "text", max: 120 },
    logoImage,
    images,
  ],
};

/** Every field key any profile type has (the `profile.<field>` references a workflow may use). */
export const ALL_PROFILE_FIELD_KEYS: string[] = [
  ...new Set(Object.values(PROFILE_FIELD_DEFS).flatMap((defs) => defs.map((def) => def.key))),
];

/** The profile sections of spec section 3, each with its empty value. */
export const PROFILE_SECTIONS = {
  crafts: [],
  profileReference: null,
  steps: [],
  results: [],
  profileItems: [],
  inputBindingValues: {},
} as const;
export type ProfileSectionName = keyof typeof PROFILE_SECTIONS;
export const PROFILE_SECTION_NAMES = Object.keys(PROFILE_SECTIONS) as ProfileSectionName[];

export type ProfileValue = string | string[];
export type ProfileValues = Record<string, ProfileValue>;

export type ProfileValuesResult =
  | { ok: true; values: ProfileValues }
  | { ok: false; code: "InvalidUrl" | "CR_ERR_BAD_REQUEST"; fields: Record<string, string> };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Trims, collapses inner spaces, drops empty items and case-insensitive duplicates (first spelling kept). */
export function cleanList(items: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of items) {
    if (typeof raw !== "string") continue;
    const item = raw.trim().replace(/\s+/g, " ");
    const key = item.toLowerCase();
    if (item === "" || seen.has(key)) continue;
    seen.add(key);
    result.push(item);
  }
  return result;
}

/** A page slug from any text ("Blue Bike 2!" → "blue-bike-2"). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function checkOne(def: ProfileFieldDef, raw: unknown): { value?: ProfileValue; error?: string } {
  const many = def.kind === "list" || def.kind === "images";
  if (many) {
    const list =
      raw === undefined || raw === null
        ? []
        : Array.isArray(raw)
          ? raw
          : typeof raw === "string"
            ? raw.split(/\n|,/)
            : null;
    if (list === null) return { error: `${def.label} must be a list` };
    const items = cleanList(list);
    if (def.maxItems !== undefined && items.length > def.maxItems)
      return { error: `At most ${def.maxItems} items in ${def.label.toLowerCase()}` };
    if (items.some((item) => item.length > def.max))
      return { error: `Each item of ${def.label.toLowerCase()} must be at most ${def.max} characters` };
    if (def.kind === "images" && items.some((item) => !isImageRef(item))) return { error: INVALID_URL_MESSAGE };
    return { value: items };
  }
  if (raw !== undefined && raw !== null && typeof raw !== "string") return { error: `${def.label} must be text` };
  const text = ((raw as string | undefined) ?? "").trim();
  if (text === "") return def.required ? { error: `${def.label} is required` } : { value: "" };
  if (text.length > def.max) return { error: `${def.label} must be at most ${def.max} characters` };
  switch (def.kind) {
    case "url": {
      const normalized = normalizeUrl(text, { allowSchemeless: true });
      if (normalized === null) return { error: INVALID_URL_MESSAGE };
      const url = new URL(normalized);
      return url.username === "" && url.password === "" ? { value: normalized } : { error: INVALID_URL_MESSAGE };
    }
    case "image":
      return isImageRef(text) ? { value: text } : { error: INVALID_URL_MESSAGE };
    case "date":
      return isRealDate(text) ? { value: text } : { error: `${def.label} must be a date (YYYY-MM-DD)` };
    case "timeZone": {
      const zone = canonicalTimeZone(text);
      return zone ? { value: zone } : { error: `${def.label} must be an IANA time zone, such as Europe/London` };
    }
    case "slug": {
      const slug = slugify(text);
      return SLUG.test(slug) ? { value: slug } : { error: `${def.label} needs letters or digits` };
    }
    default:
      return { value: def.kind === "text" ? text.replace(/\s+/g, " ") : text };
  }
}

/** An image is an absolute http(s) URL or a path the gateway serves (`/media/…`). */
function isImageRef(text: string): boolean {
  if (text.startsWith("/media/")) return true;
  return normalizeUrl(text) !== null && /^https?:\/\//i.test(text);
}

/**
 * Checks the values of a profile of `type`:
 * - only the type's fields (PROFILE_FIELD_DEFS) are kept, unknown keys are an error;
 * - `partial`: only the keys given are checked (an update), else every required field must be there;
 * - urls follow the spec's rule in scheme-less mode and are stored with their scheme; dates are
 *   `YYYY-MM-DD` and a campaign ends on or after its start; slugs are normalised; lists cleaned.
 * @returns the clean values, or every field error at once. `code` is InvalidUrl when URLs are the only problem.
 */
export function validateProfileValues(
  type: ProfileTypeName,
  input: Record<string, unknown>,
  options: { partial?: boolean } = {},
): ProfileValuesResult {
  const defs = PROFILE_FIELD_DEFS[type];
  const fields: Record<string, string> = {};
  const values: ProfileValues = {};
  for (const key of Object.keys(input)) {
    if (!defs.some((def) => def.key === key)) fields[key] = `A ${type.toLowerCase()} profile has no field ${key}`;
  }
  for (const def of defs) {
    if (options.partial && !(def.key in input)) continue;
    const { value, error } = checkOne(def, input[def.key]);
    if (error) fields[def.key] = error;
    else if (value !== undefined) values[def.key] = value;
  }
  const start = values.startDate;
  const end = values.endDate;
  if (typeof start === "string" && typeof end === "string" && start && end && end < start)
    fields.endDate = "The end date must be on or after the start date";
  const problems = Object.entries(fields);
  if (problems.length > 0) {
    const onlyUrls = problems.every(([, message]) => message === INVALID_URL_MESSAGE);
    return { ok: false, code: onlyUrls ? "InvalidUrl" : "CR_ERR_BAD_REQUEST", fields };
  }
  return { ok: true, values };
}

/** Splits clean values into the profile's own columns and its type-specific `fields`. */
export function splitProfileValues(values: ProfileValues): {
  core: Partial<Record<CoreProfileField, ProfileValue>>;
  extra: ProfileValues;
} {
  const core: Partial<Record<CoreProfileField, ProfileValue>> = {};
  const extra: ProfileValues = {};
  for (const [key, value] of Object.entries(values)) {
    if ((CORE_PROFILE_FIELDS as readonly string[]).includes(key)) core[key as CoreProfileField] = value;
    else extra[key] = value;
  }
  return { core, extra };
}

/** The value of a field of a profile (its own columns first, then `fields`), as stored. */
export function profileFieldValue(
  profile: { [K in CoreProfileField]?: unknown } & { fields?: Record<string, unknown> | null },
  key: string,
): unknown {
  if ((CORE_PROFILE_FIELDS as readonly string[]).includes(key)) return profile[key as CoreProfileField];
  return profile.fields?.[key];
}
