/**
 * Keys of the settings lists (custom fields, interaction types, contact types): a stable
 * identifier made from the first label, kept when the label changes later, since contacts, segments
 * and saved columns refer to it. Pure; unit tested in keys.test.ts.
 */

/** "Shoe size (EU)" → "shoe_size_eu"; unique among `taken` by a numeric suffix. */
export function keyFromLabel(label: string, taken: readonly string[]): string {
  const base =
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 32) || "field";
  const start = /^[a-z]/.test(base) ? base : `f_${base}`;
  if (!taken.includes(start)) return start;
  for (let n = 2; ; n++) {
    const candidate = `${start}_${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/** The problem with a new label, or null: required, at most 60 characters (the service takes 80), unique (case-insensitive). */
export function labelProblem(label: string, others: readonly string[]): string | null {
  const trimmed = label.trim();
  if (!trimmed) return "A name is required";
  if (trimmed.length > 60) return "At most 60 characters";
  if (others.some((other) => other.trim().toLowerCase() === trimmed.toLowerCase())) return "This name is taken";
  return null;
}

/** Select options typed as chips: trimmed, non-empty, unique, in order. */
export function cleanOptions(options: readonly string[]): string[] {
  const out: string[] = [];
  for (const option of options) {
    const value = option.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}
