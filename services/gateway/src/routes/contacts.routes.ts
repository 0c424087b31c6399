import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import { Dedupe, type ListContactsRequest } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { z } from "zod";
import {
  CONSENT_VALUES,
  consentStatusOf,
  toConsentAskJson,
  toConsentChangeJson,
  toContactJson,
  toImportJson,
  toInteractionJson,
  toSettingsJson,
} from "../domain/contacts";
import { defineRoute, type RouteDef } from "../http/registry";
import { pageMeta, pageMetaOf, paging, projectQuery, text } from "../http/rest-bindings";
import { emailAddress, id, isoTime, jsonObject, timeZoneName } from "../http/schemas";
import type { RouteDeps } from "./deps";
import { consentCountsSchema, toConsentCountsJson } from "./gen/contacts.v1.contacts";

const SORTS = [
  "name",
  "firstName",
  "lastName",
  "email",
  "company",
  "customerSince",
  "updated_on",
  "createdAt",
  "consent",
] as const;

/** The table's filters (also the bulk action's `filter` and the CSV export's query). */
const listFilters = {
  sort: z.enum(SORTS, { error: `sort is one of ${SORTS.join(", ")}` }).optional(),
  order: z.enum(["asc", "desc"], { error: "order is asc or desc" }).optional(),
  q: text("q", 200).optional().meta({ description: "Token search over name, email and company." }),
  tags: text("tags", 1000).optional().meta({ description: "Comma-separated; every tag must be present." }),
  consent: z.enum(CONSENT_VALUES, { error: `consent is one of ${CONSENT_VALUES.join(", ")}` }).optional(),
  contactType: text("contactType", 80).optional(),
  customerKind: z.enum(["business", "personal"], { error: "customerKind is business or personal" }).optional(),
  segmentId: text("segmentId", 64).optional(),
};
const listFilterSchema = z.object(listFilters);
type ListFilters = z.output<typeof listFilterSchema>;

const contactSchema = z
  .looseObject({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    company: z.string(),
    customerKind: z.string(),
    contactType: z.string(),
    tags: z.array(z.string()),
    custom: z.looseObject({}),
    customerSince: z.string().nullable(),
    updated_on: z.string().nullable(),
    source: z.string(),
    consent: z.string(),
    consentAt: z.string().nullable(),
    interactionCount: z.number(),
    timeZone: z.string().meta({ description: "The contact's own IANA time zone; empty: the business's." }),
    orderCount: z
      .number()
      .nullable()
      .meta({ description: "Orders placed in the connected store (Shopify); null when no store knows the contact." }),
    totalSpent: z.number().nullable().meta({
      description: "Total spent in the connected store, in spentCurrency; null when no store knows the contact.",
    }),
    spentCurrency: z.string().meta({ description: "ISO 4217 code of totalSpent; empty when null." }),
  })
  .meta({ id: "Contact" });

/** ContactInput: every field optional (PATCH changes those given; POST needs the email). */
const contactInput = z.object({
  firstName: text("firstName", 100).optional(),
  lastName: text("lastName", 100).optional(),
  email: text("Email", 320).optional(),
  phone: text("phone", 40).optional(),
  company: text("company", 200).optional(),
  customerKind: z
    .union([z.enum(["business", "personal"]), z.literal("")], { error: "customerKind is business or personal" })
    .optional(),
  contactType: text("contactType", 80).optional(),
  tags: z.array(text("A tag", 50), { error: "tags must be a list" }).max(50, "At most 50 tags").optional(),
  custom: jsonObject("custom").optional(),
  customerSince: isoTime("customerSince").nullable().optional(),
  timeZone: timeZoneName("Time zone must be an IANA name such as Europe/London")
    .optional()
    .meta({ description: 'An IANA time zone ("Europe/London"); "" clears it (the business\'s zone applies).' }),
});
type ContactInputBody = z.output<typeof contactInput>;

function toInput(body: ContactInputBody) {
  const { customerSince, custom, ...rest } = body;
  return {
    ...rest,
    custom: custom as Record<string, never> | undefined,
    customerSince: customerSince ? timestampFromDate(new Date(customerSince)) : undefined,
  };
}

const settingsItem = z.object({ key: text("key", 40), label: text("label", 80) });
const customFieldItem = z.object({
  key: text("key", 40),
  label: text("label", 80),
  type: z.enum(["text", "number", "date", "select", "boolean"], {
    error: "type is text, number, date, select or boolean",
  }),
  options: z.array(text("An option", 80)).max(100, "At most 100 options").optional(),
});

function listRequest(projectId: string, f: ListFilters & { page?: number; pageSize?: number }) {
  return {
    projectId,
    query: f.q ?? "",
    tags: (f.tags ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== ""),
    consent: f.consent ?? "",
    contactType: f.contactType ?? "",
    customerKind: f.customerKind ?? "",
    segmentId: f.segmentId ?? "",
    sortBy: f.sort ?? "",
    descending: f.order === "desc",
    page: f.page ?? 1,
    pageSize: f.pageSize ?? 20,
  } satisfies Partial<ListContactsRequest>;
}

const SETTINGS_LISTS = {
  "custom-fields": { item: customFieldItem, field: "customFields" },
  "interaction-types": { item: settingsItem, field: "interactionTypes" },
  "contact-types": { item: settingsItem, field: "contactTypes" },
} as const;

/** /api/contacts and /api/segments (docs/second-half-contract.md "Contacts REST"). */
export function contactsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { contacts } = clients;
  const C = "/api/contacts";
  const contactParams = z.object({ id: id("id") });
  const settingsRoutes = Object.entries(SETTINGS_LISTS).flatMap(([list, { item, field }]) => [
    defineRoute({
      method: "get",
      path: `${C}/settings/${list}`,
      tag: "contacts",
      summary: `The project's ${list.replace("-", " ")}`,
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      response: z.array(z.looseObject({ key: z.string(), label: z.string() })),
      errors: ["NOT_FOUND"],
      handler: async ({ as, project }) => {
        const projectId = project.projectId;
        const { settings } = await contacts.getContactSettings({ projectId }, as);
        return toSettingsJson(settings)[field];
      },
    }),
    defineRoute({
      method: "put",
      path: `${C}/settings/${list}`,
      tag: "contacts",
      summary: `Replace the project's ${list.replace("-", " ")}`,
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: z.array(item, { error: "The body is a list" }).max(50, "At most 50 items"),
      response: z.array(z.looseObject({ key: z.string(), label: z.string() })),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { settings } = await contacts.saveContactSettings(
          {
            projectId,
            list,
            settings: { [field]: body.map((i) => ({ ...i, options: "options" in i ? (i.options ?? []) : [] })) },
          },
          as,
        );
        return toSettingsJson(settings)[field];
      },
    }),
  ]);

  return [
    ...settingsRoutes,
    // Before /api/contacts/{id}, which would take "imports" for an id.
    ...importRoutes({ clients } as RouteDeps),
    ...consentAskRoutes({ clients } as RouteDeps),
    defineRoute({
      method: "get",
      path: C,
      tag: "contacts",
      summary: "One page of the customer profile table",
      auth: "session",
      actsInProject: true,
      query: z.object({ ...projectQuery, ...paging, ...listFilters }),
      description:
        "`meta.consent` counts the contacts of the search and filters by consent, leaving out the consent filter itself (the table's summary bar).",
      response: z.object({
        result: z.array(contactSchema.nullable()),
        meta: pageMeta.extend({ consent: consentCountsSchema }),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const page = await contacts.listContacts(listRequest(projectId, query), as);
        return {
          result: page.contacts.map(toContactJson),
          meta: {
            count: page.count,
            currentPage: page.currentPage,
            totalPages: page.totalPages,
            consent: toConsentCountsJson(page.consentCounts),
          },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: C,
      tag: "contacts",
      summary: "Add a contact",
      description:
        "Consent starts pending (double opt-in). 'Email is required' / 'Invalid email' come in error.fields.email.",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      // A new contact needs its address (the kit's email rule, as the contacts service checks it).
      body: contactInput.extend({ email: emailAddress }),
      response: contactSchema,
      status: 201,
      idempotent: true,
      errors: ["CONTACT_EXISTS", "FREE_USER_LIMIT", "CORE_CONTACTS_LIMIT", "PLAN_LIMIT_REACHED", "NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { contact } = await contacts.createContact({ projectId, contact: toInput(body) }, as);
        return toContactJson(contact)!;
      },
    }),
    defineRoute({
      method: "get",
      path: `${C}/export.csv`,
      tag: "contacts",
      summary: "The table's contacts as CSV (all pages, the list filters apply)",
      description: "Answers text/csv, not the envelope.",
      auth: "session",
      actsInProject: true,
      query: z.object({ ...projectQuery, ...listFilters }),
      response: z.string().meta({ description: "text/csv" }),
      fileResponse: ["text/csv"],
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, res, project }) => {
        const projectId = project.projectId;
        const { page: _p, pageSize: _s, ...request } = listRequest(projectId, query);
        const stream = contacts.exportContacts(request, as);
        const first = await stream[Symbol.asyncIterator]().next();
        res.status(200);
        res.setHeader("content-type", "text/csv; charset=utf-8");
        res.setHeader("content-disposition", 'attachment; filename="contacts.csv"');
        if (!first.done) res.write(first.value.csv);
        for await (const chunk of stream) res.write(chunk.csv);
        res.end();
        return "";
      },
    }),
    defineRoute({
      method: "post",
      path: `${C}/bulk`,
      tag: "contacts",
      summary: "Tag, untag, delete or add to a segment: the ids given, or every contact of a filter",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: z
        .object({
          ids: z.array(id("An id"), { error: "ids must be a list" }).max(10_000, "At most 10000 ids").optional(),
          filter: listFilterSchema.optional(),
          action: z.enum(["tag", "untag", "delete", "addToSegment"], {
            error: "action is tag, untag, delete or addToSegment",
          }),
          tags: z.array(text("A tag", 50), { error: "tags must be a list" }).max(50, "At most 50 tags").optional(),
          segmentId: text("segmentId", 64).optional(),
        })
        .refine((b) => b.ids !== undefined || b.filter !== undefined, {
          message: "Give ids or a filter",
          path: ["ids"],
        })
        .refine((b) => !(b.action === "tag" || b.action === "untag") || (b.tags?.length ?? 0) > 0, {
          message: "Give the tags",
          path: ["tags"],
        })
        .refine((b) => b.action !== "addToSegment" || !!b.segmentId, {
          message: "Give the segment",
          path: ["segmentId"],
        }),
      response: z.object({ affected: z.number() }),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const ids =
          body.ids ??
          (await contacts.listContactIds({ list: listRequest(projectId, body.filter ?? {}) }, as)).contactIds;
        if (ids.length === 0) return { affected: 0 };
        switch (body.action) {
          case "tag":
            return {
              affected: (await contacts.tagContacts({ projectId, contactIds: ids, add: body.tags ?? [] }, as)).updated,
            };
          case "untag":
            return {
              affected: (await contacts.tagContacts({ projectId, contactIds: ids, remove: body.tags ?? [] }, as))
                .updated,
            };
          case "delete":
            return { affected: (await contacts.deleteContacts({ projectId, contactIds: ids }, as)).deleted };
          default:
            return {
              affected: (
                await contacts.addToSegment({ projectId, segmentId: body.segmentId ?? "", contactIds: ids }, as)
              ).added,
            };
        }
      },
    }),
    defineRoute({
      method: "get",
      path: `${C}/{id}`,
      tag: "contacts",
      summary: "A contact with its consent history",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object(projectQuery),
      response: z.looseObject({
        ...contactSchema.shape,
        consentHistory: z.array(z.object({ status: z.string(), at: z.string().nullable(), source: z.string() })),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const got = await contacts.getContact({ projectId, contactId: params.id }, as);
        return { ...toContactJson(got.contact)!, consentHistory: got.consentHistory.map(toConsentChangeJson) };
      },
    }),
    defineRoute({
      method: "patch",
      path: `${C}/{id}`,
      tag: "contacts",
      summary: "Change a contact's fields (those given); `consent` records a consent change",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object(projectQuery),
      body: contactInput.extend({
        consent: z.enum(CONSENT_VALUES, { error: `consent is one of ${CONSENT_VALUES.join(", ")}` }).optional(),
      }),
      response: contactSchema,
      errors: ["NOT_FOUND", "CONTACT_EXISTS"],
      handler: async ({ params, body, as, project }) => {
        const projectId = project.projectId;
        const { consent, ...fields } = body;
        const names = Object.keys(fields).filter((k) => (fields as Record<string, unknown>)[k] !== undefined);
        let contact = names.length
          ? (
              await contacts.updateContact(
                { projectId, contactId: params.id, contact: toInput(fields), fields: names },
                as,
              )
            ).contact
          : (await contacts.getContact({ projectId, contactId: params.id }, as)).contact;
        if (consent) {
          contact = (
            await contacts.setConsent(
              { projectId, contactId: params.id, status: consentStatusOf(consent), source: "manual" },
              as,
            )
          ).contact;
        }
        return toContactJson(contact)!;
      },
    }),
    defineRoute({
      method: "delete",
      path: `${C}/{id}`,
      tag: "contacts",
      summary: "Delete a contact everywhere (ContactDeleted)",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object(projectQuery),
      response: z.object({ deleted: z.number() }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { deleted } = await contacts.deleteContacts({ projectId, contactIds: [params.id] }, as);
        if (deleted === 0) throw appError("NOT_FOUND", "No such contact.");
        return { deleted };
      },
    }),
    defineRoute({
      method: "get",
      path: `${C}/{id}/export`,
      tag: "contacts",
      summary: "All of one contact's data as JSON (privacy export)",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object(projectQuery),
      response: z.looseObject({}),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        const { json } = await contacts.exportContactData({ projectId, contactId: params.id }, as);
        return JSON.parse(json) as Record<string, unknown>;
      },
    }),
    defineRoute({
      method: "get",
      path: `${C}/{id}/interactions`,
      tag: "contacts",
      summary: "A contact's interaction timeline, newest first",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object({ ...projectQuery, ...paging }),
      response: z.object({
        result: z.array(
          z.object({ id: z.string(), type: z.string(), note: z.string(), occurredAt: z.string().nullable() }),
        ),
        meta: pageMeta,
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, query, as, project }) => {
        const projectId = project.projectId;
        const page = await contacts.listInteractions(
          { projectId, contactId: params.id, page: query.page, pageSize: query.pageSize },
          as,
        );
        return {
          result: page.interactions.map(toInteractionJson),
          meta: pageMetaOf(page),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: `${C}/{id}/interactions`,
      tag: "contacts",
      summary: "Add an interaction (its type from the interaction-types list)",
      auth: "session",
      actsInProject: true,
      params: contactParams,
      query: z.object(projectQuery),
      body: z.object({
        type: text("type", 40).min(1, "type is required"),
        note: text("note", 5000).default(""),
        occurredAt: isoTime("occurredAt").optional(),
      }),
      response: z.object({ id: z.string(), type: z.string(), note: z.string(), occurredAt: z.string().nullable() }),
      status: 201,
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as, project }) => {
        const projectId = project.projectId;
        const { interaction } = await contacts.addInteraction(
          {
            projectId,
            contactId: params.id,
            type: body.type,
            note: body.note,
            at: body.occurredAt ? timestampFromDate(new Date(body.occurredAt)) : undefined,
          },
          as,
        );
        return interaction
          ? toInteractionJson(interaction)
          : { id: "", type: body.type, note: body.note, occurredAt: null };
      },
    }),
    ...segmentRoutes({ clients } as RouteDeps),
  ];
}

const importRowError = z.object({ line: z.number(), email: z.string(), value: z.string(), reason: z.string() });

const importSchema = z
  .looseObject({
    id: z.string(),
    status: z.enum(["fields", "processing", "result", "error"]),
    processing: z.boolean(),
    file: z.object({ name: z.string(), size: z.number(), rows: z.number() }),
    headers: z.array(z.string()),
    preview: z.array(z.array(z.string())),
    fields: z.record(z.string(), z.string().nullable()),
    mapping: z.array(z.object({ header: z.string(), target: z.string().nullable() })),
    result: z.object({
      processed: z.number(),
      total: z.number(),
      created: z.number(),
      updated: z.number(),
      skipped: z.number(),
      failed: z.number(),
      overLimit: z.number(),
      duplicatesInFile: z
        .number()
        .meta({ description: "Rows whose email appeared earlier in the file (neither created nor updated)." }),
    }),
    inFile: z.enum(["first", "last"]).nullable(),
    errors: z
      .array(importRowError)
      .meta({ description: "The first 100 rows not imported, by line, once the import ended (errors.csv has all)." }),
    error: z.string().nullable(),
  })
  .meta({ id: "ContactImport" });

const importCheckSchema = z
  .object({
    rows: z.number(),
    consent: z
      .object({
        subscribed: z.number(),
        pending: z.number(),
        unsubscribed: z.number(),
        bounced: z.number(),
        complained: z.number(),
      })
      .meta({ description: "Rows by the consent they would be imported with (pending: no opt-in evidence)." }),
    failing: z.number().meta({ description: "Rows that would be refused (invalid email, a value too long…)." }),
    duplicatesInFile: z.number(),
    unknown: z
      .array(
        z.object({
          header: z.string(),
          target: z.string(),
          values: z.array(z.object({ value: z.string(), count: z.number() })),
          more: z.boolean(),
          rows: z.number(),
          guessed: z.boolean(),
        }),
      )
      .meta({ description: "Columns mapped to a select field holding values outside its list." }),
    errors: z.array(importRowError),
  })
  .meta({ id: "ContactImportCheck" });

const mappingBody = z
  .union([
    z.record(text("A header", 200), text("A target", 100).nullable()),
    z.array(z.object({ header: text("header", 200), target: text("target", 100).nullable() })).max(200),
  ])
  .optional()
  .meta({
    description: "header → field (firstName, email, custom.plan, consent…) or null to skip; guesses otherwise.",
  });

/** The mapping body as the contract's entries (null: skip the column). */
function mappingEntries(mapping: z.infer<typeof mappingBody>): Array<{ header: string; target: string }> {
  return Array.isArray(mapping)
    ? mapping.map((m) => ({ header: m.header, target: m.target ?? "" }))
    : Object.entries(mapping ?? {}).map(([header, target]) => ({ header, target: target ?? "" }));
}

/** /api/contacts/imports: upload (raw text/csv), preview and guessed mapping, start, progress, bad rows. */
function importRoutes({ clients }: RouteDeps): RouteDef[] {
  const { contacts } = clients;
  const I = "/api/contacts/imports";
  const params = z.object({ id: id("id") });
  return [
    defineRoute({
      method: "get",
      path: I,
      tag: "contacts",
      summary: "The project's recent imports, newest first",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      response: z.array(importSchema.nullable()),
      errors: ["NOT_FOUND"],
      handler: async ({ as, project }) => {
        const projectId = project.projectId;
        return (await contacts.listImports({ projectId }, as)).imports.map(toImportJson);
      },
    }),
    defineRoute({
      method: "post",
      path: I,
      tag: "contacts",
      summary: "Upload a CSV (raw text/csv body, at most 20 MB): its headers, first 5 rows and the guessed mapping",
      auth: "session",
      actsInProject: true,
      query: z.object({
        ...projectQuery,
        name: text("name", 200).optional().meta({ description: "The file's name." }),
      }),
      bodyType: "text/csv",
      body: z
        .string({ error: "Send the file as a text/csv body" })
        .min(1, "The file is empty")
        .meta({ description: "The CSV file (Content-Type: text/csv)." }),
      response: importSchema,
      status: 201,
      errors: ["IMPORT_TOO_LARGE", "NOT_FOUND"],
      handler: async ({ query, body, as, project }) => {
        const projectId = project.projectId;
        const data = Buffer.from(body, "utf8");
        async function* parts() {
          for (let at = 0; at < Math.max(data.length, 1); at += 256 * 1024) {
            yield {
              projectId: at === 0 ? projectId : "",
              fileName: at === 0 ? (query.name ?? "contacts.csv") : "",
              chunk: data.subarray(at, at + 256 * 1024),
            };
          }
        }
        const uploaded = await contacts.uploadImportFile(parts(), as);
        return toImportJson(uploaded.import)!;
      },
    }),
    defineRoute({
      method: "get",
      path: `${I}/{id}`,
      tag: "contacts",
      summary: "An import's state (the spec's contact import state) and progress",
      auth: "session",
      actsInProject: true,
      params,
      response: importSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params: p, as }) => toImportJson((await contacts.getImport({ importId: p.id }, as)).import)!,
    }),
    defineRoute({
      method: "put",
      path: `${I}/{id}`,
      tag: "contacts",
      summary: "Start an import with the chosen mapping and duplicate rule",
      auth: "session",
      actsInProject: true,
      params,
      body: z.object({
        mapping: mappingBody,
        duplicates: z.enum(["update", "skip"], { error: "duplicates is update or skip" }).default("update"),
        inFile: z
          .enum(["first", "last"], { error: "inFile is first or last" })
          .default("first")
          .meta({ description: "Which row of an email repeated inside the file is imported." }),
      }),
      response: importSchema,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params: p, body, as }) => {
        const { import: state } = await contacts.startImport(
          {
            importId: p.id,
            mapping: mappingEntries(body.mapping),
            dedupe: body.duplicates === "skip" ? Dedupe.SKIP : Dedupe.UPDATE,
            inFile: body.inFile,
          },
          as,
        );
        return toImportJson(state)!;
      },
    }),
    defineRoute({
      method: "post",
      path: `${I}/{id}/check`,
      tag: "contacts",
      summary:
        "What an uploaded import would do with a mapping, writing nothing: consent per row, refused rows, repeated emails, select values not in their list",
      auth: "session",
      actsInProject: true,
      params,
      body: z.object({ mapping: mappingBody }),
      response: importCheckSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params: p, body, as }) => {
        const checked = await contacts.checkImport({ importId: p.id, mapping: mappingEntries(body.mapping) }, as);
        return {
          rows: checked.rows,
          consent: {
            subscribed: checked.subscribed,
            pending: checked.pending,
            unsubscribed: checked.unsubscribed,
            bounced: checked.bounced,
            complained: checked.complained,
          },
          failing: checked.failing,
          duplicatesInFile: checked.duplicatesInFile,
          unknown: checked.unknown.map(({ header, target, values, more, rows, guessed }) => ({
            header,
            target,
            values: values.map(({ value, count }) => ({ value, count })),
            more,
            rows,
            guessed,
          })),
          errors: checked.errors.map(({ line, email, value, reason }) => ({ line, email, value, reason })),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: `${I}/{id}/errors.csv`,
      tag: "contacts",
      summary: "The rows an import could not take: line, email, reason (text/csv, not enveloped)",
      auth: "session",
      actsInProject: true,
      params,
      response: z.string().meta({ description: "text/csv" }),
      fileResponse: ["text/csv"],
      errors: ["NOT_FOUND"],
      handler: async ({ params: p, as, res }) => {
        const parts: Uint8Array[] = [];
        for await (const part of contacts.exportImportErrors({ importId: p.id }, as)) parts.push(part.csv);
        res.status(200);
        res.setHeader("content-type", "text/csv; charset=utf-8");
        res.setHeader("content-disposition", 'attachment; filename="import-errors.csv"');
        res.end(Buffer.concat(parts));
        return "";
      },
    }),
  ];
}

/** Whose pending contacts "Ask for permission" emails: a saved segment, a condition tree, or all. */
const askTargetBody = z
  .object({
    segmentId: text("segmentId", 64).optional(),
    query: jsonObject("query").optional(),
  })
  .refine((b) => !(b.segmentId && b.query), { message: "Give a segment or a query, not both", path: ["query"] });

const askTarget = (projectId: string, body: z.output<typeof askTargetBody>) => ({
  projectId,
  segmentId: body.segmentId ?? "",
  ...(body.query ? { tree: body.query as never } : {}),
});

const consentAskSchema = z
  .object({
    id: z.string(),
    segmentId: z.string(),
    total: z.number().meta({ description: "Pending contacts this request set out to ask." }),
    sent: z.number().meta({ description: "Double opt-in emails queued so far (one per contact)." }),
    skipped: z.number().meta({ description: "Pending contacts left out: asked within 30 days, or no longer pending." }),
    done: z.boolean(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: "ConsentRequest" });

/** /api/contacts/consent-requests: "Ask for permission" (the double opt-in email to pending contacts). */
function consentAskRoutes({ clients }: RouteDeps): RouteDef[] {
  const { contacts } = clients;
  const R = "/api/contacts/consent-requests";
  return [
    defineRoute({
      method: "post",
      path: `${R}/preview`,
      tag: "contacts",
      summary: 'How many pending contacts "Ask for permission" would email, and how many it skips',
      description:
        "For a saved segment (`segmentId`), a condition tree (`query`), or the whole project (neither). A contact is asked at most once per 30 days: those asked within 30 days are `recentlyAsked` and skipped. Nothing is sent.",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: askTargetBody,
      response: z.object({ pending: z.number(), eligible: z.number(), recentlyAsked: z.number() }),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const preview = await contacts.previewConsentAsk({ target: askTarget(project.projectId, body) }, as);
        return { pending: preview.pending, eligible: preview.eligible, recentlyAsked: preview.recentlyAsked };
      },
    }),
    defineRoute({
      method: "post",
      path: R,
      tag: "contacts",
      summary: "Ask for permission: email the double opt-in link to the pending contacts",
      description:
        "Same target as the preview. The emails go in the background at a paced rate; poll `GET /api/contacts/consent-requests/{id}`. Each contact gets at most one in 30 days, however many requests or replicas run at once; confirming the link subscribes the contact.",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: askTargetBody,
      response: consentAskSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const { run } = await contacts.startConsentAsk({ target: askTarget(project.projectId, body) }, as);
        return toConsentAskJson(run);
      },
    }),
    defineRoute({
      method: "get",
      path: `${R}/{id}`,
      tag: "contacts",
      summary: "How far a request for permission has got",
      auth: "session",
      actsInProject: true,
      params: z.object({ id: id("id") }),
      query: z.object(projectQuery),
      response: consentAskSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params: p, as, project }) => {
        const { run } = await contacts.getConsentAsk({ projectId: project.projectId, runId: p.id }, as);
        return toConsentAskJson(run);
      },
    }),
  ];
}

/** /api/segments/preview; the other segment routes are generated from the contacts proto (routes/gen). */
function segmentRoutes({ clients }: RouteDeps): RouteDef[] {
  const { contacts } = clients;
  const S = "/api/segments";
  return [
    defineRoute({
      method: "post",
      path: `${S}/preview`,
      tag: "segments",
      summary: "The live count and up to 10 contacts a condition tree matches",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: z.object({ query: jsonObject("query") }),
      response: z.object({
        count: z.number(),
        preview: z.array(contactSchema.nullable()),
        consent: consentCountsSchema,
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const result = await contacts.countSegment({ projectId, tree: body.query as never, preview: 10 }, as);
        return {
          count: result.count,
          preview: result.preview.map(toContactJson),
          consent: toConsentCountsJson(result.consent),
        };
      },
    }),
  ];
}
