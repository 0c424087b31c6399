import { badRequest } from "@crafter/kit";
import { PROFILE_SECTION_NAMES, PROFILE_SECTIONS } from "@crafter/validation";

/** Largest JSON a profile's sections may hold together (characters). */
export const MAX_SECTIONS_JSON = 200_000;

export function emptySections(): Record<string, unknown> {
  return structuredClone(PROFILE_SECTIONS) as unknown as Record<string, unknown>;
}

/** A profile's sections with every section present (stored ones over the empty defaults). */
export function withSectionDefaults(sections: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return { ...emptySections(), ...(sections ?? {}) };
}

/** Whether any object key inside `value` starts with "$" or holds a "." (the database refuses them as field names). */
function hasStorageUnsafeKey(value: unknown, depth = 0): boolean {
  if (depth > 40 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => hasStorageUnsafeKey(item, depth + 1));
  return Object.entries(value).some(
    ([key, inner]) => key.startsWith("$") || key.includes(".") || hasStorageUnsafeKey(inner, depth + 1),
  );
}

/**
 * Checks a sections patch: only the spec's six names; list sections are lists, inputBindingValues
 * an object, profileReference an object or null.
 * @returns `$set` paths (`sections.<name>`). @throws CR_ERR_BAD_REQUEST per bad section.
 */
export function sectionsPatch(patch: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, string> = {};
  const set: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(patch)) {
    if (!(PROFILE_SECTION_NAMES as string[]).includes(name)) {
      fields[name] = `Unknown section (known: ${PROFILE_SECTION_NAMES.join(", ")})`;
      continue;
    }
    const empty = PROFILE_SECTIONS[name as keyof typeof PROFILE_SECTIONS];
    const ok = Array.isArray(empty)
      ? Array.isArray(value)
      : empty === null
        ? value === null || (typeof value === "object" && !Array.isArray(value))
        : typeof value === "object" && value !== null && !Array.isArray(value);
    if (!ok) fields[name] = `${name} has the wrong shape`;
    else if (hasStorageUnsafeKey(value)) fields[name] = `${name} has a key starting with $ or holding a dot`;
    else set[`sections.${name}`] = value;
  }
  if (JSON.stringify(patch).length > MAX_SECTIONS_JSON) fields.sections = "The sections are too large";
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return set;
}
