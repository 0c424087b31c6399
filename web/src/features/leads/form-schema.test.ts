import { describe, expect, it } from "@jest/globals";
import type { LeadFormField } from "../../api/leads";
import { leadFieldChoices, leadFormSchema, normaliseLeadFields, submissionValues } from "./form-schema";

const fields: LeadFormField[] = [
  { key: "email", label: "Email", type: "email", required: true },
  { key: "firstName", label: "First name", type: "text", required: true },
  { key: "custom.size", label: "Size", type: "number", required: false },
  { key: "custom.vip", label: "VIP", type: "checkbox", required: false },
];

const messages = (input: Record<string, string>) => {
  const parsed = leadFormSchema(fields).safeParse(input);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("the public lead form", () => {
  it("uses the spec's email messages", () => {
    expect(messages({ email: "", firstName: "A", "custom.size": "", "custom.vip": "" }).email).toBe(
      "Email is required",
    );
    expect(messages({ email: "nope", firstName: "A", "custom.size": "", "custom.vip": "" }).email).toBe(
      "Invalid email",
    );
  });

  it("checks required and number fields", () => {
    const found = messages({ email: "a@b.co", firstName: " ", "custom.size": "x", "custom.vip": "" });
    expect(found.firstName).toBe("First name is required");
    expect(found["custom.size"]).toBe("Size must be a number");
    expect(messages({ email: "a@b.co", firstName: "Ann", "custom.size": "38", "custom.vip": "true" })).toEqual({});
  });

  it("sends typed, trimmed values and leaves empty ones out", () => {
    expect(
      submissionValues(fields, { email: " Ann@Example.COM ", firstName: "Ann", "custom.size": "", "custom.vip": "" }),
    ).toEqual({ email: "ann@example.com", firstName: "Ann", "custom.vip": false });
  });

  it("always keeps a required email field, once", () => {
    expect(normaliseLeadFields([{ key: "firstName", label: "Name", type: "text", required: false }])[0]).toEqual({
      key: "email",
      label: "Email",
      type: "email",
      required: true,
    });
    const twice = normaliseLeadFields([
      { key: "email", label: "Your email", type: "text", required: false },
      { key: "email", label: "Again", type: "email", required: true },
    ]);
    expect(twice).toEqual([{ key: "email", label: "Your email", type: "email", required: true }]);
  });

  it("offers custom fields, booleans as checkboxes", () => {
    const choices = leadFieldChoices([{ key: "vip", label: "VIP", type: "boolean" }]);
    expect(choices.at(-1)).toEqual({
      key: "custom.vip",
      label: "VIP",
      type: "checkbox",
      required: false,
      options: undefined,
    });
  });
});
