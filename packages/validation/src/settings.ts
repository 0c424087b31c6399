/** The user settings of spec section 3, with the spec's defaults. */
export interface UserSettings {
  theme: "light" | "dark";
  viewMode: string;
  fastGeneration: boolean;
  leftSidebarOpen: boolean;
  rightSidebarOpen: boolean;
  rightSidebarWidth: string;
  customerProfileColumns: string[];
  contentCalendarColumns: string[];
  contentCalendarViewMode: string;
  onboardingSkipped: boolean;
  activeTemplateType: string;
  [key: string]: unknown;
}

export const DEFAULT_SETTINGS: Readonly<UserSettings> = Object.freeze({
  theme: "light",
  viewMode: "list",
  fastGeneration: false,
  leftSidebarOpen: true,
  rightSidebarOpen: true,
  rightSidebarWidth: "medium",
  customerProfileColumns: ["name", "email", "customerSince", "updated_on", "tags", "action"],
  contentCalendarColumns: [
    "id",
    "title",
    "type",
    "status",
    "date_time",
    "delivery_rate",
    "bounce_rate",
    "open_rate",
    "click_rate",
    "action",
  ],
  contentCalendarViewMode: "calendar",
  onboardingSkipped: false,
  activeTemplateType: "predefinedTemplates",
});

/** True for the values a settings merge ignores: undefined, null, "" (after trim) and []. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * Merges `patch` over `base` key by key; empty values in the patch are ignored (spec section 5),
 * so a partial form never wipes a stored setting. `false` and `0` are real values and are kept.
 */
export function mergeSettings<T extends Record<string, unknown>>(base: T, patch: Record<string, unknown>): T {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (!isEmptyValue(value)) merged[key] = value;
  }
  return merged as T;
}
