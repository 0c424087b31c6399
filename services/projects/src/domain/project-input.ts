import { canonicalTimeZone } from "@crafter/time";
import { INVALID_URL_MESSAGE, normalizeUrl } from "@crafter/validation";

/**
 * Validation of a new project's PROJECT profile (name, description, audience, keywords, website).
 * Pure; the use case turns a failure into the ConnectError the gateway maps to the envelope.
 */

export const PROJECT_LIMITS = {
  /** Characters. */
  name: 120,
  /** Characters. */
  description: 5000,
  /** Characters. */
  audience: 1000,
  /** Keywords after trimming and de-duplication. */
  keywords: 20,
  /** Characters per keyword. */
  keyword: 60,
} as const;

/** A project as the client sends it; every field may be missing or empty. */
export interface ProjectInput {
  name?: string;
  description?: string;
  audience?: string;
  keywords?: readonly string[];
  websiteUrl?: string;
  /** The business's IANA time zone (onboarding sends the browser's); "" or missing: none yet (UTC). */
  timeZone?: string;
}

/** A valid project: strings trimmed, keywords de-duplicated, website normalised with its scheme ("" when none). */
export interface ValidProjectInput {
  name: string;
  description: string;
  audience: string;
  keywords: string[];
  websiteUrl: string;
  /** Canonical IANA name, or "" when none was given. */
  timeZone: string;
}

export type ProjectInputResult =
  | { ok: true; value: ValidProjectInput }
  /** `code` is InvalidUrl when the website URL is the only problem, else CR_ERR_BAD_REQUEST. */
  | { ok: false; code: "InvalidUrl" | "CR_ERR_BAD_REQUEST"; fields: Record<string, string> };

/**
 * Trims keywords, drops empty ones and de-duplicates them case-insensitively (the first spelling
 * is kept, in the order given).
 */
export function cleanKeywords(keywords: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of keywords) {
    const keyword = raw.trim().replace(/\s+/g, " ");
    const key = keyword.toLowerCase();
    if (keyword === "" || seen.has(key)) continue;
    seen.add(key);
    result.push(keyword);
  }
  return result;
}

/**
 * The spec's URL rule in scheme-less mode (https assumed), plus: no credentials in the URL. The
 * kit's rule reads "mailto:me@acme.com" without a scheme as https://mailto:me@acme.com (user
 * "mailto"); a business website never carries a user or password, so such input is rejected.
 * @returns the normalised URL with its scheme, or null when invalid.
 */
export function normalizeWebsiteUrl(input: string): string | null {
  const normalized = normalizeUrl(input, { allowSchemeless: true });
  if (normalized === null) return null;
  const url = new URL(normalized);
  return url.username === "" && url.password === "" ? normalized : null;
}

/**
 * Checks a new project:
 * - name required, at most 120 characters; description required, at most 5000;
 * - audience optional, at most 1000;
 * - keywords at most 20 (after cleaning), each at most 60 characters;
 * - websiteUrl optional; when given it must pass the spec's URL rule in scheme-less mode
 *   (https assumed), and is stored normalised;
 * - timeZone optional; when given an IANA time zone the runtime knows, stored in its canonical spelling.
 * @returns the cleaned input, or every field error at once (field name → message).
 */
export function validateProjectInput(input: ProjectInput): ProjectInputResult {
  const fields: Record<string, string> = {};
  const name = (input.name ?? "").trim();
  const description = (input.description ?? "").trim();
  const audience = (input.audience ?? "").trim();
  const keywords = cleanKeywords(input.keywords ?? []);
  const rawUrl = (input.websiteUrl ?? "").trim();

  if (name === "") fields.name = "Name is required";
  else if (name.length > PROJECT_LIMITS.name) fields.name = `Name must be at most ${PROJECT_LIMITS.name} characters`;
  if (description === "") fields.description = "Description is required";
  else if (description.length > PROJECT_LIMITS.description)
    fields.description = `Description must be at most ${PROJECT_LIMITS.description} characters`;
  if (audience.length > PROJECT_LIMITS.audience)
    fields.audience = `Audience must be at most ${PROJECT_LIMITS.audience} characters`;
  if (keywords.length > PROJECT_LIMITS.keywords) fields.keywords = `At most ${PROJECT_LIMITS.keywords} keywords`;
  else if (keywords.some((keyword) => keyword.length > PROJECT_LIMITS.keyword))
    fields.keywords = `Each keyword must be at most ${PROJECT_LIMITS.keyword} characters`;

  let websiteUrl = "";
  if (rawUrl !== "") {
    const normalized = normalizeWebsiteUrl(rawUrl);
    if (normalized === null) fields.websiteUrl = INVALID_URL_MESSAGE;
    else websiteUrl = normalized;
  }

  const rawZone = (input.timeZone ?? "").trim();
  const timeZone = rawZone === "" ? "" : canonicalTimeZone(rawZone);
  if (timeZone === null) fields.timeZone = "Time zone must be an IANA time zone, such as Europe/London";

  const problems = Object.keys(fields);
  if (problems.length > 0) {
    const onlyUrl = problems.length === 1 && problems[0] === "websiteUrl";
    return { ok: false, code: onlyUrl ? "InvalidUrl" : "CR_ERR_BAD_REQUEST", fields };
  }
  return { ok: true, value: { name, description, audience, keywords, websiteUrl, timeZone: timeZone ?? "" } };
}
