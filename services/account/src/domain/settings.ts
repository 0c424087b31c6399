import { DEFAULT_SETTINGS, isEmptyValue, mergeSettings, type UserSettings } from "@crafter/validation";

/**
 * User settings (spec section 3): which keys exist, what each may hold, and how a partial update is
 * merged over the stored values (empty values ignored, spec section 5). Pure; no I/O.
 */

type Rule = (value: unknown) => { value: unknown } | { error: string };

const MAX_COLUMNS = 50;
const MAX_COLUMN_NAME = 64;
// A short identifier-like value ("list", "predefinedTemplates", "320px", "medium").
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.%-]{0,49}$/;

const oneOf =
  (label: string, allowed: readonly string[]): Rule =>
  (value) =>
    typeof value === "string" && allowed.includes(value.trim())
      ? { value: value.trim() }
      : { error: `${label} must be one of: ${allowed.join(", ")}` };

const boolean =
  (label: string): Rule =>
  (value) =>
    typeof value === "boolean" ? { value } : { error: `${label} must be true or false` };

const token =
  (label: string): Rule =>
  (value) =>
    typeof value === "string" && TOKEN.test(value.trim())
      ? { value: value.trim() }
      : { error: `${label} must be a short name of letters, digits, '-', '_', '.' or '%'` };

const columns =
  (label: string): Rule =>
  (value) => {
    const problem = `${label} must be a list of at most ${MAX_COLUMNS} column names of at most ${MAX_COLUMN_NAME} characters`;
    if (!Array.isArray(value) || value.length > MAX_COLUMNS) return { error: problem };
    const names: string[] = [];
    for (const item of value) {
      if (typeof item !== "string") return { error: problem };
      const name = item.trim();
      if (name === "" || name.length > MAX_COLUMN_NAME) return { error: problem };
      if (!names.includes(name)) names.push(name);
    }
    return { value: names };
  };

/** One rule per setting of spec section 3; a key without a rule is unknown and rejected. */
const RULES: Record<keyof typeof DEFAULT_SETTINGS & string, Rule> = {
  theme: oneOf("Theme", ["light", "dark"]),
  viewMode: token("View mode"),
  fastGeneration: boolean("Fast generation"),
  leftSidebarOpen: boolean("Left sidebar open"),
  rightSidebarOpen: boolean("Right sidebar open"),
  rightSidebarWidth: token("Right sidebar width"),
  customerProfileColumns: columns("Customer profile columns"),
  contentCalendarColumns: columns("Content calendar columns"),
  contentCalendarViewMode: token("Content calendar view mode"),
  onboardingSkipped: boolean("Onboarding skipped"),
  activeTemplateType: token("Active template type"),
};

export const UNKNOWN_SETTING_MESSAGE = "Unknown setting";

export type SettingsPatchResult =
  | { ok: true; patch: Partial<UserSettings> }
  | { ok: false; fields: Record<string, string> };

/**
 * Validates a partial settings object sent by the client.
 * - keys not in spec section 3 → field error "Unknown setting";
 * - empty values (undefined, null, "", []) are ignored, as the merge ignores them;
 * - other values must fit their key (theme light|dark, booleans boolean, names short tokens,
 *   column lists of names); strings are trimmed and column lists de-duplicated.
 * @returns the cleaned, non-empty patch, or every field error at once (field name → message).
 */
export function validateSettingsPatch(input: Record<string, unknown>): SettingsPatchResult {
  const fields: Record<string, string> = {};
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const rule = Object.hasOwn(RULES, key) ? RULES[key as keyof typeof RULES] : undefined;
    if (!rule) {
      fields[key] = UNKNOWN_SETTING_MESSAGE;
      continue;
    }
    if (isEmptyValue(value)) continue;
    const checked = rule(value);
    if ("error" in checked) fields[key] = checked.error;
    else patch[key] = checked.value;
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, patch: mergeSettings({}, patch) as Partial<UserSettings> };
}

/**
 * The settings a user sees: every default of spec section 3, overlaid with what the user stored
 * (stored empty values and keys that are no longer known are ignored).
 */
export function effectiveSettings(stored: Record<string, unknown> | null | undefined): UserSettings {
  const known = Object.fromEntries(Object.entries(stored ?? {}).filter(([key]) => Object.hasOwn(RULES, key)));
  return mergeSettings(
    {
      ...DEFAULT_SETTINGS,
      customerProfileColumns: [...DEFAULT_SETTINGS.customerProfileColumns],
      contentCalendarColumns: [...DEFAULT_SETTINGS.contentCalendarColumns],
    },
    known,
  );
}
