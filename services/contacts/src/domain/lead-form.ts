import type { ContactFields, ContactFieldsInput } from "./contact";
import type { CustomFieldDefinition } from "./fields";

/**
 * The lead form (pure; unit-tested): its fields, the builder's checks, and a visitor's values
 * turned into a contact's fields, with per-field errors named `values.<key>` (as the web reads them).
 */
export interface LeadFormField {
  /** email, firstName, lastName, phone, company, or `custom.<key>`. */
  key: string;
  label: string;
  type: string;
  required: boolean;
  options: string[];
}

export interface LeadFormContent {
  title: string;
  fields: LeadFormField[];
  consentText: string;
  thankYouMessage: string;
}

export const LEAD_FIELD_TYPES = ["text", "email", "phone", "textarea", "number", "date", "select", "checkbox"];
const CONTACT_KEYS = ["email", "firstName", "lastName", "phone", "company"] as const;
export const MAX_LEAD_FIELDS = 30;

export const DEFAULT_LEAD_FORM: LeadFormContent = {
  title: "Join our newsletter",
  fields: [
    { key: "email", label: "Email", type: "email", required: true, options: [] },
    { key: "firstName", label: "First name", type: "text", required: false, options: [] },
  ],
  consentText: "I agree to receive emails from us. I can unsubscribe at any time.",
  thankYouMessage: "Thanks! Please confirm your email.",
};

/**
 * The builder's form made valid: known keys (contact fields or the project's custom fields), unique,
 * email present (first when missing) and required. @returns the form, or errors by field path.
 */
export function checkLeadForm(
  input: LeadFormContent,
  custom: readonly CustomFieldDefinition[],
): { ok: true; value: LeadFormContent } | { ok: false; fields: Record<string, string> } {
  const errors: Record<string, string> = {};
  const title = input.title.trim();
  if (!title) errors.title = "The form needs a title";
  else if (title.length > 120) errors.title = "A title has at most 120 characters";
  if (input.consentText.length > 1000) errors.consentText = "At most 1000 characters";
  if (input.thankYouMessage.length > 500) errors.thankYouMessage = "At most 500 characters";
  if (input.fields.length > MAX_LEAD_FIELDS) errors.fields = `At most ${MAX_LEAD_FIELDS} fields`;
  const seen = new Set<string>();
  const fields: LeadFormField[] = [];
  input.fields.forEach((field, index) => {
    const known =
      (CONTACT_KEYS as readonly string[]).includes(field.key) ||
      (field.key.startsWith("custom.") && custom.some((c) => `custom.${c.key}` === field.key));
    if (!known) errors[`fields.${index}.key`] = `Unknown field ${field.key}`;
    else if (!LEAD_FIELD_TYPES.includes(field.type)) errors[`fields.${index}.type`] = "Unknown field type";
    else if (field.label.trim().length === 0 || field.label.length > 80)
      errors[`fields.${index}.label`] = "A label has 1 to 80 characters";
    if (seen.has(field.key)) return;
    seen.add(field.key);
    const isEmail = field.key === "email";
    fields.push({
      key: field.key,
      label: field.label.trim(),
      type: isEmail ? "email" : field.type,
      required: isEmail || field.required,
      options: field.options.slice(0, 100).map((o) => o.slice(0, 100)),
    });
  });
  if (!seen.has("email")) fields.unshift({ ...DEFAULT_LEAD_FORM.fields[0]! });
  if (Object.keys(errors).length > 0) return { ok: false, fields: errors };
  return {
    ok: true,
    value: { title, fields, consentText: input.consentText.trim(), thankYouMessage: input.thankYouMessage.trim() },
  };
}

const textOf = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;

/**
 * A visitor's values as a contact's fields (checked later by checkContactFields for email and custom
 * types). Required fields must be filled, unknown keys are refused, values are text ≤ 2000.
 */
export function submissionFields(
  fields: readonly LeadFormField[],
  values: Record<string, unknown>,
):
  | { ok: true; value: ContactFieldsInput; values: Record<string, string | boolean> }
  | { ok: false; fields: Record<string, string> } {
  const errors: Record<string, string> = {};
  const out: ContactFieldsInput = { custom: {} };
  const kept: Record<string, string | boolean> = {};
  for (const key of Object.keys(values)) {
    if (!fields.some((f) => f.key === key)) errors[`values.${key}`] = "This form has no such field";
  }
  for (const field of fields) {
    const raw = values[field.key];
    const isBox = field.type === "checkbox";
    const text = isBox ? undefined : (textOf(raw) ?? "").trim();
    if (raw !== undefined && raw !== null && !isBox && textOf(raw) === undefined) {
      errors[`values.${field.key}`] = `${field.label} must be text`;
      continue;
    }
    if (isBox && raw !== undefined && raw !== null && typeof raw !== "boolean") {
      errors[`values.${field.key}`] = `${field.label} must be true or false`;
      continue;
    }
    if (field.key === "email") {
      if (!text) errors["values.email"] = "Email is required";
      out.email = text ?? "";
      continue;
    }
    if (field.required && (isBox ? raw !== true : !text)) {
      errors[`values.${field.key}`] = `${field.label} is required`;
      continue;
    }
    if (text !== undefined && text.length > 2000) {
      errors[`values.${field.key}`] = "At most 2000 characters";
      continue;
    }
    if (isBox) {
      if (raw === undefined || raw === null) continue;
      kept[field.key] = raw as boolean;
    } else if (text) kept[field.key] = text;
    else continue;
    const value = isBox ? raw : text;
    if (field.key.startsWith("custom.")) out.custom![field.key.slice("custom.".length)] = value;
    else (out as Record<string, unknown>)[field.key] = value;
  }
  if (out.email) kept.email = out.email.toLowerCase();
  if (Object.keys(out.custom!).length === 0) delete out.custom;
  return Object.keys(errors).length > 0 ? { ok: false, fields: errors } : { ok: true, value: out, values: kept };
}

/** Prefixes a contact check's field errors as the form's `values.<key>`. */
export function asValueErrors(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, message]) => [`values.${key}`, message]));
}

/**
 * What an anonymous submission may add to a contact that already exists: only the fields it has
 * empty (a name, phone, company or custom value the owner or the contact already gave is never
 * changed by someone who only knows the email). @returns the fields to set, empty when none.
 */
export function fillEmptyFields(
  current: Pick<ContactFields, "firstName" | "lastName" | "phone" | "company" | "custom">,
  given: Pick<ContactFields, "firstName" | "lastName" | "phone" | "company" | "custom">,
): Partial<Pick<ContactFields, "firstName" | "lastName" | "phone" | "company" | "custom">> {
  const fill: Partial<Pick<ContactFields, "firstName" | "lastName" | "phone" | "company" | "custom">> = {};
  for (const key of ["firstName", "lastName", "phone", "company"] as const) {
    if (given[key] && !current[key]) fill[key] = given[key];
  }
  const custom: ContactFields["custom"] = {};
  for (const [key, value] of Object.entries(given.custom ?? {})) {
    const had = current.custom?.[key];
    if (had === undefined || had === null || had === "") custom[key] = value;
  }
  if (Object.keys(custom).length > 0) fill.custom = custom;
  return fill;
}
