import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Automation, AutomationRun } from "@crafter/proto/crafter/notifications/v1/automations_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id, jsonObject } from "../http/schemas";
import type { RouteDeps } from "./deps";

// /api/automations (docs/email-contract.md "Automations"). The notifications service checks triggers
// and steps deeply (one schema, src/domain/automation-model.ts) and answers CR_ERR_BAD_REQUEST with
// the problem in error.fields; here they are only shaped, and documented.

const projectQuery = {
  projectId: z
    .string({ error: "projectId must be text" })
    .max(64, "projectId has at most 64 characters")
    .optional()
    .meta({ description: "The project; the active one when absent." }),
};

const whole = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`);
const paging = { page: whole("page", 100_000).default(1), pageSize: whole("pageSize", 100).default(20) };
const pageMeta = z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() });

const triggerSchema = z
  .looseObject({
    kind: z.string({ error: "trigger.kind is required" }).max(40).meta({
      description:
        "lead_captured, contact_created, tag_added (tag), segment_entered (segmentId), email_opened or email_clicked (campaignId?), date_field (field, offsetDays?).",
    }),
  })
  .meta({ id: "AutomationTrigger" });
const stepsSchema = z
  .array(jsonObject("A step"), { error: "steps is a list" })
  .max(50, "An automation has at most 50 steps")
  .meta({
    description:
      "Step { id, kind: wait|condition|send_email|add_tag|remove_tag|update_field|notify_owner, … }: wait { duration (ISO 8601) | until (an instant) | at (HH:mm, the next such time in the business's time zone) }, condition { query (segments' query JSON), yes: Step[], no: Step[] }, send_email { subject, html, preheader? }, add_tag/remove_tag { tag }, update_field { field, value }, notify_owner { title, body?, level? }.",
  });
const name = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "Give the automation a name")
  .max(120, "A name has at most 120 characters");

const statsSchema = z.object({ running: z.number(), completed: z.number(), failed: z.number() });
const automationSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    status: z.enum(["draft", "active", "paused"]),
    trigger: z.looseObject({ kind: z.string() }),
    steps: z.array(z.record(z.string(), z.unknown())),
    stats: statsSchema,
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "Automation" });
const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    trigger: z.looseObject({ kind: z.string() }),
    steps: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ id: "AutomationTemplate" });
const runSchema = z
  .object({
    id: z.string(),
    automationId: z.string(),
    automationName: z.string(),
    contactId: z.string(),
    email: z.string(),
    status: z.enum(["running", "completed", "failed"]),
    currentStepId: z.string(),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    steps: z.array(
      z.object({
        stepId: z.string(),
        kind: z.string(),
        status: z.string(),
        detail: z.string(),
        at: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "AutomationRun" });

const iso = (t: Parameters<typeof timestampDate>[0] | undefined) => (t ? timestampDate(t).toISOString() : null);
const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

function toAutomationJson(a: Automation | undefined): z.infer<typeof automationSchema> {
  if (!a) throw new Error("the notifications service answered no automation");
  return {
    id: a.automationId,
    projectId: a.projectId,
    name: a.name,
    status: a.status as "draft" | "active" | "paused",
    trigger: parse(a.triggerJson, { kind: "" }),
    steps: parse(a.stepsJson, []),
    stats: { running: a.stats?.running ?? 0, completed: a.stats?.completed ?? 0, failed: a.stats?.failed ?? 0 },
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

function toRunJson(r: AutomationRun): z.infer<typeof runSchema> {
  return {
    id: r.runId,
    automationId: r.automationId,
    automationName: r.automationName,
    contactId: r.contactId,
    email: r.email,
    status: r.status as "running" | "completed" | "failed",
    currentStepId: r.currentStepId,
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
    steps: r.steps.map((s) => ({ stepId: s.stepId, kind: s.kind, status: s.status, detail: s.detail, at: iso(s.at) })),
  };
}

/** /api/automations and /api/contacts/{id}/automation-runs. */
export function automationsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { automations } = clients;
  const A = "/api/automations";
  const idParams = z.object({ id: id("id") });
  const body = z.object({ name, trigger: triggerSchema, steps: stepsSchema });
  const one = (method: "get" | "delete" | "post", path: string, summary: string) => ({
    method,
    path,
    summary,
    tag: "automations",
    auth: "session" as const,
    actsInProject: true,
    params: idParams,
    query: z.object(projectQuery),
    errors: ["NOT_FOUND"] as const,
  });
  return [
    // Before /api/automations/{id}, which would take "templates" for an id.
    defineRoute({
      method: "get",
      path: `${A}/templates`,
      tag: "automations",
      summary: "The shipped automation templates",
      auth: "session",
      actsInProject: true,
      response: z.array(templateSchema),
      handler: async ({ as }) => {
        const { templates } = await automations.listAutomationTemplates({}, as);
        return templates.map((t) => ({
          id: t.templateId,
          name: t.name,
          description: t.description,
          trigger: parse(t.triggerJson, { kind: "" }),
          steps: parse(t.stepsJson, []),
        }));
      },
    }),
    defineRoute({
      method: "post",
      path: `${A}/from-template`,
      tag: "automations",
      summary: "A draft automation copied from a template",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: z.object({ templateId: id("templateId") }),
      response: automationSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.createAutomationFromTemplate(
          { projectId, templateId: body.templateId },
          as,
        );
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      method: "get",
      path: A,
      tag: "automations",
      summary: "The project's automations, newest first, with their run stats",
      auth: "session",
      actsInProject: true,
      query: z.object({ ...projectQuery, ...paging }),
      response: z.object({ result: z.array(automationSchema), meta: pageMeta }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const page = await automations.listAutomations({ projectId, page: query.page, pageSize: query.pageSize }, as);
        return {
          result: page.automations.map(toAutomationJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: A,
      tag: "automations",
      summary: "Create a draft automation",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body,
      response: automationSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.createAutomation(
          {
            projectId,
            name: body.name,
            triggerJson: JSON.stringify(body.trigger),
            stepsJson: JSON.stringify(body.steps),
          },
          as,
        );
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      ...one("get", `${A}/{id}`, "One automation"),
      response: automationSchema,
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.getAutomation({ projectId, automationId: params.id }, as);
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      method: "put",
      path: `${A}/{id}`,
      tag: "automations",
      summary: "Replace an automation's name, trigger and steps",
      auth: "session",
      actsInProject: true,
      params: idParams,
      query: z.object(projectQuery),
      body,
      response: automationSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.updateAutomation(
          {
            projectId,
            automationId: params.id,
            name: body.name,
            triggerJson: JSON.stringify(body.trigger),
            stepsJson: JSON.stringify(body.steps),
          },
          as,
        );
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      ...one("delete", `${A}/{id}`, "Delete an automation (its runs stop)"),
      response: z.object({ deleted: z.literal(true) }),
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        await automations.deleteAutomation({ projectId, automationId: params.id }, as);
        return { deleted: true as const };
      },
    }),
    defineRoute({
      ...one("post", `${A}/{id}/activate`, "Activate (or resume) an automation"),
      response: automationSchema,
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.activateAutomation({ projectId, automationId: params.id }, as);
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      ...one("post", `${A}/{id}/pause`, "Pause an automation (running contacts wait at their next step)"),
      response: automationSchema,
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { automation } = await automations.pauseAutomation({ projectId, automationId: params.id }, as);
        return toAutomationJson(automation);
      },
    }),
    defineRoute({
      ...one("get", `${A}/{id}/runs`, "An automation's run history, newest first"),
      query: z.object({ ...projectQuery, ...paging }),
      response: z.object({ result: z.array(runSchema), meta: pageMeta }),
      handler: async ({ params, query, as, project }) => {
        const projectId = project.projectId;
        const page = await automations.listAutomationRuns(
          { projectId, automationId: params.id, page: query.page, pageSize: query.pageSize },
          as,
        );
        return {
          result: page.runs.map(toRunJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      ...one("get", "/api/contacts/{id}/automation-runs", "A contact's automation runs, newest first"),
      query: z.object({ ...projectQuery, ...paging }),
      response: z.object({ result: z.array(runSchema), meta: pageMeta }),
      handler: async ({ params, query, as, project }) => {
        const projectId = project.projectId;
        const page = await automations.listAutomationRuns(
          { projectId, contactId: params.id, page: query.page, pageSize: query.pageSize },
          as,
        );
        return {
          result: page.runs.map(toRunJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
  ];
}
