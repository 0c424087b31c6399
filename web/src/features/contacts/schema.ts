import { isTimeZone } from "@crafter/time";
import { z } from "zod";
import type { Contact, ContactInput, CustomField } from "../../api/contacts/types";

/**
 * The contact form's schema (react-hook-form + zod) with the spec's email messages
 * ('Email is required', 'Invalid email'), and the conversion of form values to the contract's
 * ContactInput. Custom field values stay strings in the form (inputs give strings) and are typed
 * here. Pure; unit tested in schema.test.ts.
 */

export const EMAIL_REQUIRED = "Email is required";
export const INVALID_EMAIL = "Invalid email";

const emailSchema = z
  .string()
  .trim()
  .min(1, EMAIL_REQUIRED)
  .max(254, INVALID_EMAIL)
  .pipe(z.email({ message: INVALID_EMAIL }));

export interface ContactFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  /** An IANA zone, or "" for the business's. */
  timeZone: string;
  customerKind: string;
  contactType: string;
  tags: string[];
  /** Custom field key → the input's value ("" = empty; booleans "true"/"false"). */
  custom: Record<string, string>;
}

function customValueSchema(field: CustomField) {
  const optional = (check: (value: string) => boolean, message: string) =>
    z.string().refine((value) => value.trim() === "" || check(value.trim()), message);
  switch (field.type) {
    case "number":
      return optional((value) => Number.isFinite(Number(value)), `${field.label} must be a number`);
    case "date":
      return optional((value) => !Number.isNaN(Date.parse(value)), `${field.label} must be a date`);
    case "select":
      return optional((value) => (field.options ?? []).includes(value), `Choose one of the options`);
    case "boolean":
      return optional((value) => value === "true" || value === "false", `${field.label} is yes or no`);
    default:
      return z.string().max(1000, `${field.label} is at most 1000 characters`);
  }
}

export function contactFormSchema(customFields: readonly CustomField[]) {
  return z.object({
    firstName: z.string().trim().max(100, "At most 100 characters"),
    lastName: z.string().trim().max(100, "At most 100 characters"),
    email: emailSchema,
    phone: z
      .string()
      .trim()
      .max(40, "At most 40 characters")
      .refine((value) => value === "" || /^[+()\d\s.-]{3,}$/.test(value), "Invalid phone number"),
    company: z.string().trim().max(200, "At most 200 characters"),
    timeZone: z.string().refine((value) => value === "" || isTimeZone(value), "Choose a time zone from the list"),
    customerKind: z.string(),
    contactType: z.string(),
    tags: z.array(z.string().trim().min(1).max(50, "A tag is at most 50 characters")).max(50, "At most 50 tags"),
    custom: z.object(Object.fromEntries(customFields.map((field) => [field.key, customValueSchema(field)]))),
  });
}

export function emptyContactForm(customFields: readonly CustomField[]): ContactFormValues {
  return {
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    company: "",
    timeZone: "",
    customerKind: "",
    contactType: "",
    tags: [],
    custom: Object.fromEntries(customFields.map((field) => [field.key, ""])),
  };
}

/** A contact's current values as form values (the contact page's edit form). */
export function contactToForm(contact: Contact, customFields: readonly CustomField[]): ContactFormValues {
  const custom = Object.fromEntries(
    customFields.map((field) => {
      const value = contact.custom?.[field.key];
      if (value === undefined || value === null) return [field.key, ""];
      if (field.type === "date" && typeof value === "string") return [field.key, value.slice(0, 10)];
      return [field.key, String(value)];
    }),
  );
  return {
    firstName: contact.firstName ?? "",
    lastName: contact.lastName ?? "",
    email: contact.email ?? "",
    phone: contact.phone ?? "",
    company: contact.company ?? "",
    timeZone: contact.timeZone ?? "",
    customerKind: contact.customerKind ?? "",
    contactType: contact.contactType ?? "",
    tags: contact.tags ?? [],
    custom,
  };
}

/** Typed custom values; an emptied field is sent as null so an update clears it. */
export function typedCustomValues(
  values: Record<string, string>,
  customFields: readonly CustomField[],
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const field of customFields) {
    const raw = (values[field.key] ?? "").trim();
    if (raw === "") out[field.key] = null;
    else if (field.type === "number") out[field.key] = Number(raw);
    else if (field.type === "boolean") out[field.key] = raw === "true";
    else out[field.key] = raw;
  }
  return out;
}

/** Form values → the contract's ContactInput (empty strings left out on create). */
export function toContactInput(values: ContactFormValues, customFields: readonly CustomField[]): ContactInput {
  const input: ContactInput = { email: values.email.trim().toLowerCase() };
  for (const key of ["firstName", "lastName", "phone", "company", "customerKind", "contactType", "timeZone"] as const) {
    const value = values[key].trim();
    if (value) input[key] = value;
  }
  if (values.tags.length) input.tags = values.tags;
  const custom = Object.fromEntries(
    Object.entries(typedCustomValues(values.custom, customFields)).filter(([, value]) => value !== null),
  );
  if (Object.keys(custom).length) input.custom = custom;
  return input;
}
