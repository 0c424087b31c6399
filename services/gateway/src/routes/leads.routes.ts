import { ASSISTANT_TONES } from "@crafter/validation";
import { z } from "zod";
import { assistantKnowledge, toAssistantJson, toLeadFormJson, toSessionJson, toSubmissionJson } from "../domain/leads";
import { defineRoute, type RouteDef } from "../http/registry";
import { id, NOT_BLANK } from "../http/schemas";
import type { RouteDeps } from "./deps";

const text = (name: string, max: number) =>
  z.string({ error: `${name} must be text` }).max(max, `${name} has at most ${max} characters`);

const projectQuery = z.object({
  projectId: text("projectId", 64).optional().meta({ description: "The project; the active one when absent." }),
});

const pageNumber = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`);

const pagedQuery = projectQuery.extend({
  page: pageNumber("page", 100_000).default(1),
  pageSize: pageNumber("pageSize", 100).default(20),
});

const pageMeta = z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() });

const FIELD_TYPES = ["text", "email", "phone", "textarea", "number", "date", "select", "checkbox"] as const;

const leadField = z.object({
  key: text("key", 90).min(1, "key is required"),
  label: text("label", 80),
  type: z.enum(FIELD_TYPES, { error: `type is one of ${FIELD_TYPES.join(", ")}` }),
  required: z.boolean({ error: "required is true or false" }).default(false),
  options: z.array(text("An option", 100)).max(100, "At most 100 options").optional(),
});

export const leadFormSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    fields: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.string(),
        required: z.boolean(),
        options: z.array(z.string()).optional(),
      }),
    ),
    consentText: z.string(),
    thankYouMessage: z.string(),
    doubleOptIn: z.literal(true),
  })
  .meta({ id: "LeadForm" });

const assistantSchema = z
  .object({
    id: z.string(),
    greeting: z.string(),
    questions: z.array(z.string()),
    tone: z.string(),
    enabled: z.boolean(),
  })
  .meta({ id: "LeadAssistant" });

const sessionSchema = z
  .object({
    id: z.string(),
    startedAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    lead: z.object({ name: z.string(), email: z.string(), contactId: z.string() }).nullable(),
    messageCount: z.number(),
    tooLong: z.boolean(),
    messages: z.array(z.object({ role: z.string(), content: z.string(), at: z.string().nullable() })).optional(),
  })
  .meta({ id: "AssistantSession" });

/** /api/leads: the project's lead form and lead assistant (docs/second-half-contract.md "Contacts REST"). */
export function leadsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { leads } = clients;
  const L = "/api/leads";
  return [
    defineRoute({
      method: "get",
      path: `${L}/form`,
      tag: "leads",
      summary: "The project's lead form (created with defaults on first read)",
      auth: "session",
      actsInProject: true,
      query: projectQuery,
      response: leadFormSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ as, project }) => {
        const projectId = project.projectId;
        return toLeadFormJson((await leads.getLeadForm({ projectId }, as)).form);
      },
    }),
    defineRoute({
      method: "put",
      path: `${L}/form`,
      tag: "leads",
      summary: "Save the project's lead form",
      description:
        "Fields are contact fields (email, firstName, lastName, phone, company) or `custom.<key>`; email is always present and required. Double opt-in is always on.",
      auth: "session",
      actsInProject: true,
      query: projectQuery,
      body: z.object({
        title: text("title", 120),
        fields: z.array(leadField, { error: "fields must be a list" }).max(30, "At most 30 fields"),
        consentText: text("consentText", 1000).default(""),
        thankYouMessage: text("thankYouMessage", 500).default(""),
        doubleOptIn: z.literal(true, { error: "doubleOptIn is always true" }).optional(),
      }),
      response: leadFormSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { form } = await leads.saveLeadForm(
          {
            projectId,
            form: {
              title: body.title,
              fields: body.fields.map((f) => ({ ...f, options: f.options ?? [] })),
              consentText: body.consentText,
              thankYouMessage: body.thankYouMessage,
            },
          },
          as,
        );
        return toLeadFormJson(form);
      },
    }),
    defineRoute({
      method: "get",
      path: `${L}/submissions`,
      tag: "leads",
      summary: "The lead form's submissions, newest first",
      auth: "session",
      actsInProject: true,
      query: pagedQuery,
      response: z.object({
        result: z.array(
          z.object({
            id: z.string(),
            email: z.string(),
            values: z.record(z.string(), z.unknown()),
            contactId: z.string(),
            status: z.string(),
            createdAt: z.string().nullable(),
          }),
        ),
        meta: pageMeta,
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const page = await leads.listSubmissions({ projectId, page: query.page, pageSize: query.pageSize }, as);
        return {
          result: page.submissions.map(toSubmissionJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: `${L}/assistant`,
      tag: "leads",
      summary: "The project's lead assistant (created, switched off, on first read)",
      auth: "session",
      actsInProject: true,
      query: projectQuery,
      response: assistantSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ as, project }) => {
        const projectId = project.projectId;
        return toAssistantJson((await leads.getLeadAssistant({ projectId }, as)).assistant);
      },
    }),
    defineRoute({
      method: "put",
      path: `${L}/assistant`,
      tag: "leads",
      summary: "Save the lead assistant",
      description:
        "Also takes a fresh copy of the business profile and offerings (projects service), which the assistant answers from.",
      auth: "session",
      actsInProject: true,
      query: projectQuery,
      body: z.object({
        greeting: z
          .string({ error: "greeting must be text" })
          .max(500, "greeting has at most 500 characters")
          .regex(NOT_BLANK, "The assistant needs a greeting"),
        questions: z.array(text("A question", 200)).max(10, "At most 10 questions").default([]),
        tone: z.enum(ASSISTANT_TONES, { error: `tone is one of ${ASSISTANT_TONES.join(", ")}` }).default("friendly"),
        enabled: z.boolean({ error: "enabled is true or false" }).default(false),
      }),
      response: assistantSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { profiles } = projectId ? await clients.projects.listProfiles({ projectId }, as) : { profiles: [] };
        const { knowledge, businessName } = assistantKnowledge(profiles);
        const { assistant } = await leads.saveLeadAssistant(
          { projectId, assistant: { ...body, id: "" }, knowledge, businessName },
          as,
        );
        return toAssistantJson(assistant);
      },
    }),
    defineRoute({
      method: "get",
      path: `${L}/assistant/sessions`,
      tag: "leads",
      summary: "The lead assistant's conversations, most recent first",
      auth: "session",
      actsInProject: true,
      query: pagedQuery,
      response: z.object({ result: z.array(sessionSchema), meta: pageMeta }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const page = await leads.listAssistantSessions({ projectId, page: query.page, pageSize: query.pageSize }, as);
        return {
          result: page.sessions.map((s) => toSessionJson(s, false)),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: `${L}/assistant/sessions/{id}`,
      tag: "leads",
      summary: "One conversation with its transcript",
      auth: "session",
      actsInProject: true,
      params: z.object({ id: id("id") }),
      query: projectQuery,
      response: sessionSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { session } = await leads.getAssistantSession({ projectId, sessionId: params.id }, as);
        return toSessionJson(session, true);
      },
    }),
  ];
}
