import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { paged, pageMetaOf, paging } from "../http/rest-bindings";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";
import { templateSchema, toTemplateJson } from "./gen/notifications.v1.templates";

const TAG = "Email templates";
const SECTION_FLAG = "email_designer_section_template";
/** 512 KB of MJML, as the service allows. */
const MAX_MJML = 512 * 1024;

const text = (name: string, max: number) => z.string({ error: `${name} must be text` }).max(max, `${name} is too long`);
const kind = z.enum(["email", "social"], { error: "kind must be email or social" });
const name = text("name", 200).trim().min(1, "A name is required.");
const mjml = text("mjml", MAX_MJML);
const subject = text("subject", 300);
const projectId = text("projectId", 64).optional().meta({ description: "The project; the active one when absent." });
const idParams = z.object({ id: id("id") });
const errorLine = z.object({ line: z.number(), message: z.string() });

/** /api/email/templates and /api/email/render (docs/email-contract.md, Templates). */
export function templatesRoutes({ clients }: RouteDeps): RouteDef[] {
  const templates = clients.templates;
  return [
    defineRoute({
      method: "get",
      path: "/api/email/templates",
      summary: "Email or social post templates: predefined, the caller's own, or sections",
      description: `Section templates are listed only when flag ${SECTION_FLAG} is on (an empty page otherwise).`,
      tag: TAG,
      auth: "session",
      actsInProject: true,
      query: z.object({
        kind: kind.default("email"),
        scope: z
          .enum(["predefined", "user", "section"], { error: "scope must be predefined, user or section" })
          .default("predefined"),
        projectId,
        ...paging,
      }),
      response: paged(templateSchema),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        if (query.scope === "section") {
          const flags = await clients.account.getFlags({}, as);
          if (!flags.enabledFeatures.includes(SECTION_FLAG) || flags.disabledFeatures.includes(SECTION_FLAG))
            return { result: [], meta: { count: 0, currentPage: query.page, totalPages: 1 } };
        }
        const page = await templates.listTemplates(
          {
            projectId: query.scope === "user" ? project.projectId : "",
            kind: query.kind,
            scope: query.scope,
            page: query.page,
            pageSize: query.pageSize,
          },
          as,
        );
        return {
          result: page.result.map(toTemplateJson),
          meta: pageMetaOf(page),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/email/templates",
      summary: "Save a new template of the caller's (MJML; rendered to HTML on save)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      idempotent: true,
      query: z.object({ projectId }),
      body: z.object({ kind: kind.default("email"), name, mjml, subject: subject.optional() }),
      response: templateSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) =>
        toTemplateJson(
          await templates.createTemplate(
            {
              projectId: project.projectId,
              kind: body.kind,
              name: body.name,
              mjml: body.mjml,
              subject: body.subject ?? "",
            },
            as,
          ),
        ),
    }),
    defineRoute({
      method: "put",
      path: "/api/email/templates/{id}",
      summary: "Change the caller's own template",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      body: z.object({ name: name.optional(), mjml: mjml.optional(), subject: subject.optional() }),
      response: templateSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as }) =>
        toTemplateJson(await templates.updateTemplate({ id: params.id, ...body }, as)),
    }),
    defineRoute({
      method: "post",
      path: "/api/email/render",
      summary: "Render MJML to HTML on the server, smart values filled when values are given",
      description: "MJML errors are answered with their line in `errors` (the HTML is rendered anyway when it can be).",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      body: z.object({
        mjml,
        values: z.record(text("A value's name", 100), text("A value", 2000)).optional(),
      }),
      response: z.object({ html: z.string(), errors: z.array(errorLine) }),
      handler: async ({ body, as }) => {
        const out = await templates.renderMjml({ mjml: body.mjml, values: body.values ?? {} }, as);
        return { html: out.html, errors: out.errors.map((e) => ({ line: e.line, message: e.message })) };
      },
    }),
  ];
}
