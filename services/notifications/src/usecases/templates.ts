import { fillSmartValues, normalizeSmartValues } from "@crafter/email-language";
import { htmlToText } from "@crafter/html";
import { appError, type Caller } from "@crafter/kit";
import mjml2html from "mjml";
import type { NotificationsDeps } from "../deps";

/** What the template area reads: its own store (and the clock and logger), none of the other areas. */
export type TemplatesDeps = Pick<NotificationsDeps, "stores" | "logger" | "now" | "publicOrigin">;

import { SHIPPED_TEMPLATES, type ShippedTemplate } from "../domain/template-catalogue";
import type { StoredTemplate } from "../store/template.repository";

/** Largest MJML a template may hold, in bytes. */
export const MAX_MJML_BYTES = 512 * 1024;

export interface MjmlError {
  line: number;
  message: string;
}

/** A template as the API shows it (contract: docs/email-contract.md, Templates). */
export interface TemplateView {
  id: string;
  kind: string;
  scope: string;
  name: string;
  category: string;
  thumbnailUrl: string;
  mjml: string;
  html: string;
  subject: string;
  createdAt: string;
  updatedAt: string;
}

const SHIPPED_AT = "2026-01-01T00:00:00.000Z";

/**
 * MJML → HTML with the `mjml` package, smart values filled (HTML-escaped) first when `values` is
 * given. MJML's validation errors come back with their line; a document mjml cannot read at all is
 * one error on line 0, never a throw.
 */
export async function renderMjml(
  mjml: string,
  values?: Readonly<Record<string, string>>,
): Promise<{ html: string; errors: MjmlError[] }> {
  if (Buffer.byteLength(mjml) > MAX_MJML_BYTES) {
    return { html: "", errors: [{ line: 0, message: "The template is larger than 512 KB." }] };
  }
  const source = values ? fillSmartValues(normalizeSmartValues(mjml), values, { escape: "html" }) : mjml;
  try {
    // fonts: {}: no Google Fonts links; emails use the system fonts the templates name.
    const out = await mjml2html(source, { validationLevel: "soft", keepComments: false, fonts: {} });
    return {
      html: out.html,
      errors: (out.errors ?? []).map((e) => ({ line: Number(e.line) || 0, message: e.message })),
    };
  } catch (error) {
    return { html: "", errors: [{ line: 0, message: error instanceof Error ? error.message : String(error) }] };
  }
}

// Rendered once per process: the shipped MJML never changes.
const shippedHtml = new Map<string, Promise<string>>();
function htmlOfShipped(t: ShippedTemplate): Promise<string> {
  let html = shippedHtml.get(t.id);
  if (!html) {
    html = renderMjml(t.mjml).then((r) => r.html);
    shippedHtml.set(t.id, html);
  }
  return html;
}

async function viewOfShipped(t: ShippedTemplate): Promise<TemplateView> {
  return {
    id: t.id,
    kind: t.kind,
    scope: t.scope,
    name: t.name,
    category: t.category,
    thumbnailUrl: "",
    mjml: t.mjml,
    html: await htmlOfShipped(t),
    subject: t.subject,
    createdAt: SHIPPED_AT,
    updatedAt: SHIPPED_AT,
  };
}

function viewOfStored(t: StoredTemplate): TemplateView {
  return {
    id: t.id,
    kind: t.kind,
    scope: "user",
    name: t.name,
    category: t.kind === "social" ? "Social post" : "Email",
    thumbnailUrl: "",
    mjml: t.mjml,
    html: t.html,
    subject: t.subject,
    createdAt: new Date(t.createdAt).toISOString(),
    updatedAt: new Date(t.updatedAt).toISOString(),
  };
}

function pageOf(page: number, pageSize: number) {
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 ? Math.min(pageSize, 100) : 20,
  };
}

function kindOf(kind: string): "email" | "social" {
  if (kind === "" || kind === "email") return "email";
  if (kind === "social") return "social";
  throw appError("CR_ERR_BAD_REQUEST", "kind must be email or social.", { kind: "email or social" });
}

/**
 * One page of templates of a kind and scope: the shipped predefined or section ones (in their order),
 * or the caller's own in the project (last edited first). The gateway checks the section flag.
 */
export async function listTemplates(
  deps: TemplatesDeps,
  caller: Caller,
  input: { projectId: string; kind: string; scope: string; page: number; pageSize: number },
) {
  const kind = kindOf(input.kind);
  const { page, pageSize } = pageOf(input.page, input.pageSize);
  const scope = input.scope || "predefined";
  if (scope === "predefined" || scope === "section") {
    const all = SHIPPED_TEMPLATES.filter((t) => t.kind === kind && t.scope === scope);
    const slice = all.slice((page - 1) * pageSize, page * pageSize);
    return {
      result: await Promise.all(slice.map(viewOfShipped)),
      count: all.length,
      currentPage: page,
      totalPages: Math.max(1, Math.ceil(all.length / pageSize)),
    };
  }
  if (scope !== "user")
    throw appError("CR_ERR_BAD_REQUEST", "scope must be predefined, user or section.", {
      scope: "predefined, user or section",
    });
  const found = await deps.stores.templates.page(caller.userId, input.projectId, kind, page, pageSize);
  return {
    result: found.items.map(viewOfStored),
    count: found.total,
    currentPage: found.page,
    totalPages: found.totalPages,
  };
}

async function findAny(deps: TemplatesDeps, userId: string, id: string): Promise<TemplateView> {
  const shipped = SHIPPED_TEMPLATES.find((t) => t.id === id);
  if (shipped) return viewOfShipped(shipped);
  const own = await deps.stores.templates.findById(userId, id);
  if (!own) throw appError("NOT_FOUND", "No such template.");
  return viewOfStored(own);
}

/** A shipped template or the user's own, for the service's other areas (automations). @throws NOT_FOUND */
export async function templateOfUser(deps: TemplatesDeps, userId: string, id: string): Promise<TemplateView> {
  return findAny(deps, userId, id);
}

/** @throws NOT_FOUND */
export async function getTemplate(deps: TemplatesDeps, caller: Caller, input: { id: string }) {
  return findAny(deps, caller.userId, input.id);
}

function checkedName(name: string): string {
  const trimmed = name.trim().slice(0, 200);
  if (!trimmed) throw appError("CR_ERR_BAD_REQUEST", "A name is required.", { name: "Required" });
  return trimmed;
}

function checkedMjml(mjml: string): string {
  if (Buffer.byteLength(mjml) > MAX_MJML_BYTES)
    throw appError("CR_ERR_BAD_REQUEST", "The template is larger than 512 KB.", { mjml: "At most 512 KB" });
  return mjml;
}

/** Saves a new template of the caller's; its HTML is rendered now (MJML errors do not stop a save). */
export async function createTemplate(
  deps: TemplatesDeps,
  caller: Caller,
  input: { projectId: string; kind: string; name: string; mjml: string; subject: string },
) {
  const mjml = checkedMjml(input.mjml);
  const { html } = await renderMjml(mjml);
  const created = await deps.stores.templates.create({
    userId: caller.userId,
    projectId: input.projectId,
    kind: kindOf(input.kind),
    name: checkedName(input.name),
    mjml,
    html,
    subject: input.subject.slice(0, 300),
  });
  return viewOfStored(created);
}

/** Changes the caller's own template (one editor per template: the last save wins). @throws NOT_FOUND */
export async function updateTemplate(
  deps: TemplatesDeps,
  caller: Caller,
  input: { id: string; name?: string; mjml?: string; subject?: string },
) {
  const set: Record<string, string> = {};
  if (input.name !== undefined) set.name = checkedName(input.name);
  if (input.subject !== undefined) set.subject = input.subject.slice(0, 300);
  if (input.mjml !== undefined) {
    set.mjml = checkedMjml(input.mjml);
    set.html = (await renderMjml(set.mjml)).html;
  }
  const updated = await deps.stores.templates.update(caller.userId, { _id: input.id }, { $set: set });
  if (!updated) throw appError("NOT_FOUND", "No such template.");
  return viewOfStored(updated);
}

/** @throws NOT_FOUND (also for a shipped template, which cannot be deleted) */
export async function deleteTemplate(deps: TemplatesDeps, caller: Caller, input: { id: string }) {
  if (!(await deps.stores.templates.delete(caller.userId, { _id: input.id })))
    throw appError("NOT_FOUND", "No such template.");
  return {};
}

/**
 * A template (shipped or the user's) rendered for one recipient: smart values filled from `values`
 * with their fallbacks, in the subject, the HTML and its plain-text part. For campaigns and
 * automations (in-process). @throws NOT_FOUND
 */
export async function renderTemplate(
  deps: TemplatesDeps,
  input: { userId: string; templateId: string; values: Readonly<Record<string, string>> },
): Promise<{ subject?: string; html: string; text: string }> {
  const template = await findAny(deps, input.userId, input.templateId);
  const { html } = await renderMjml(template.mjml, input.values);
  const subject = template.subject ? fillSmartValues(template.subject, input.values) : undefined;
  return { ...(subject ? { subject } : {}), html, text: htmlToText(html) };
}
