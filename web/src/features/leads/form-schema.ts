import { z } from "zod";
import type { LeadFormField } from "../../api/leads";
import { EMAIL_REQUIRED, INVALID_EMAIL } from "../contacts/schema";

/**
 * The visitor's form (react-hook-form + zod), built from the lead form's fields. Values are strings
 * (checkboxes "true"/""); the email field uses the spec's messages. Pure; unit tested.
 */
export function leadFormSchema(fields: readonly LeadFormField[]) {
  const shape: Record<string, z.ZodType<string, string>> = {};
  for (const field of fields) {
    const isEmail = field.key === "email" || field.type === "email";
    let schema: z.ZodType<string, string>;
    if (isEmail) {
      schema = z
        .string()
        .trim()
        .min(1, EMAIL_REQUIRED)
        .max(254, INVALID_EMAIL)
        .pipe(z.email({ message: INVALID_EMAIL }));
    } else {
      const base = z
        .string()
        .trim()
        .max(field.type === "textarea" ? 2000 : 200, "Too long");
      schema = field.required ? base.min(1, `${field.label} is required`) : base;
      if (field.type === "number") {
        schema = schema.refine((v) => v === "" || Number.isFinite(Number(v)), `${field.label} must be a number`);
      }
    }
    shape[field.key] = schema;
  }
  return z.object(shape);
}

/** The fields a builder may add: contact fields, then custom fields. Email is always there. */
export function leadFieldChoices(custom: readonly { key: string; label: string; type: string; options?: string[] }[]) {
  const builtIns: LeadFormField[] = [
    { key: "email", label: "Email", type: "email", required: true },
    { key: "firstName", label: "First name", type: "text", required: false },
    { key: "lastName", label: "Last name", type: "text", required: false },
    { key: "phone", label: "Phone", type: "phone", required: false },
    { key: "company", label: "Company", type: "text", required: false },
  ];
  const customs: LeadFormField[] = custom.map((field) => ({
    key: `custom.${field.key}`,
    label: field.label,
    type: field.type === "boolean" ? "checkbox" : field.type,
    required: false,
    options: field.options,
  }));
  return [...builtIns, ...customs];
}

/** The builder's fields, made valid: email present, first and required; keys unique. */
export function normaliseLeadFields(fields: readonly LeadFormField[]): LeadFormField[] {
  const seen = new Set<string>();
  const out: LeadFormField[] = [];
  for (const field of fields) {
    if (seen.has(field.key)) continue;
    seen.add(field.key);
    out.push(field.key === "email" ? { ...field, type: "email", required: true } : field);
  }
  if (!seen.has("email")) out.unshift({ key: "email", label: "Email", type: "email", required: true });
  return out;
}

/** Form values as sent to `POST /api/public/forms/:formId/submissions` (empty values left out). */
export function submissionValues(fields: readonly LeadFormField[], values: Record<string, string>) {
  const out: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = (values[field.key] ?? "").trim();
    if (field.type === "checkbox") out[field.key] = value === "true";
    else if (value) out[field.key] = field.key === "email" ? value.toLowerCase() : value;
  }
  return out;
}
