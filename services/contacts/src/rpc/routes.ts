import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { appError, badRequest, type Caller, callerOf } from "@crafter/kit";
import {
  type ConsentAskTarget,
  ContactSettingsSchema,
  ContactsService,
  Dedupe,
  ExportContactsResponseSchema,
  ExportImportErrorsResponseSchema,
  ImportStateSchema,
  StreamSegmentMembersResponseSchema,
} from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import type { ContactsDeps } from "../deps";
import { csvLine } from "../domain/csv-out";
import type { StoredContact } from "../store/contact.repository";
import type { Settings } from "../store/settings.repository";
import { type AskTarget, getConsentAsk, previewConsentAsk, startConsentAsk } from "../usecases/consent-asks";
import {
  addInteraction,
  changeConsent,
  countInteractions,
  createContact,
  deleteContacts,
  exportContactData,
  getContact,
  listInteractions,
  tagContacts,
  updateContact,
} from "../usecases/contacts";
import {
  checkImport,
  getImport,
  type ImportView,
  importErrorsCsv,
  listImports,
  MAX_IMPORT_BYTES,
  startImport,
  uploadImport,
} from "../usecases/imports";
import { actingUser, getContactLinks } from "../usecases/leads";
import { matchContact, matchContacts } from "../usecases/query";
import { scopeOf } from "../usecases/scope";
import {
  addToSegment,
  contactsByDate,
  countSegment,
  deleteSegment,
  getSegment,
  listContacts,
  listSegments,
  matchSegments,
  queryContacts,
  saveSegment,
  segmentQuery,
} from "../usecases/segments";
import { getContactSettings, saveContactSettings } from "../usecases/settings";
import { leadsRoutes } from "./leads.routes";
import {
  consentFromProto,
  fromContactInput,
  jsonCustom,
  toConsentAskRun,
  toConsentChange,
  toContact,
  toInteraction,
  toSegment,
} from "./mappers";

const askTarget = (target: ConsentAskTarget | undefined): AskTarget => ({
  projectId: target?.projectId ?? "",
  segmentId: target?.segmentId ?? "",
  tree: target?.tree,
});

const toSettings = (settings: Settings) =>
  create(ContactSettingsSchema, {
    customFields: settings.customFields.map((f) => ({ ...f, options: f.options ?? [] })),
    interactionTypes: settings.interactionTypes,
    contactTypes: settings.contactTypes,
  });

/** The CSV export's columns (custom fields follow as `custom.<key>`). */
const EXPORT_COLUMNS = [
  "email",
  "firstName",
  "lastName",
  "phone",
  "company",
  "customerKind",
  "contactType",
  "tags",
  "consent",
  "source",
  "customerSince",
  "updated_on",
] as const;

function exportRow(contact: StoredContact, customKeys: readonly string[]): string {
  const custom = jsonCustom(contact.custom);
  return csvLine([
    contact.email,
    contact.firstName,
    contact.lastName,
    contact.phone,
    contact.company,
    contact.customerKind,
    contact.contactType,
    contact.tags.join(", "),
    contact.consent,
    contact.source,
    contact.customerSince,
    contact.updatedOn,
    ...customKeys.map((key) => custom[key] ?? ""),
  ]);
}

function toImportState(view: ImportView) {
  const { doc, last } = view;
  const mapping = doc.mapping ?? doc.guessed;
  return create(ImportStateSchema, {
    importId: doc._id,
    projectId: doc.projectId,
    fileName: doc.fileName,
    fields: mapping.map((t) => t ?? ""),
    status: view.status,
    processing: view.status === "processing",
    rowsTotal: doc.rowsTotal,
    rowsDone: last?.processed ?? 0,
    created: last?.created ?? 0,
    updated: last?.updated ?? 0,
    skipped: last?.skipped ?? 0,
    failed: last?.failed ?? 0,
    overLimit: last?.overLimit ?? 0,
    limitCode: last?.limitCode ?? "",
    error: last?.error ?? "",
    fileSize: BigInt(doc.size),
    headers: doc.headers,
    preview: (doc.preview ?? []).map((row) => ({
      values: row.cells.map((cell) => ({ kind: { case: "stringValue" as const, value: cell } })),
    })),
    mapping: doc.headers.map((header, i) => ({ header, target: mapping[i] ?? "" })),
    dedupe: doc.dedupe ?? "",
    createdAt: timestampFromDate(new Date(doc.createdAt)),
    limit: last?.limit ?? 0,
    duplicatesInFile: last?.duplicates ?? 0,
    inFile: doc.started ? (doc.inFile ?? "first") : "",
    errors: view.errors.map((e) => ({ line: e.line, email: e.email, value: e.value ?? "", reason: e.reason })),
  });
}

/** crafter.contacts.v1.ContactsService: thin handlers; the use cases hold the logic. */
export function routes(deps: ContactsDeps): (router: ConnectRouter) => void {
  return (router) => {
    leadsRoutes(deps)(router);
    router.service(ContactsService, {
      async getContactsStatus(_req, ctx) {
        const entries = await deps.stores.contacts.countForUser(callerOf(ctx).userId);
        return { entries, empty: entries === 0 };
      },
      async createContact(req, ctx) {
        const contact = await createContact(deps, callerOf(ctx), {
          projectId: req.projectId,
          contact: fromContactInput(req.contact),
          source: req.source === "API" ? "API" : "manual",
        });
        return { contact: toContact(contact) };
      },
      async getContact(req, ctx) {
        const details = await getContact(deps, actingFor(callerOf(ctx), req.userId), req);
        return {
          contact: toContact(details.contact),
          consentHistory: details.consentHistory.map(toConsentChange),
          interactions: details.interactions.map(toInteraction),
        };
      },
      async updateContact(req, ctx) {
        const contact = await updateContact(deps, actingFor(callerOf(ctx), req.userId), {
          projectId: req.projectId,
          contactId: req.contactId,
          contact: fromContactInput(req.contact, req.fields),
        });
        return { contact: toContact(contact) };
      },
      async deleteContacts(req, ctx) {
        return { deleted: await deleteContacts(deps, callerOf(ctx), req) };
      },
      async listContacts(req, ctx) {
        const page = await listContacts(deps, callerOf(ctx), {
          projectId: req.projectId,
          query: req.query,
          tags: req.tags,
          consent: req.consent,
          contactType: req.contactType,
          customerKind: req.customerKind,
          segmentId: req.segmentId,
          tree: req.filter,
          sortBy: req.sortBy,
          descending: req.descending,
          page: req.page,
          pageSize: req.pageSize,
        });
        return {
          contacts: page.items.map(toContact),
          count: page.count,
          currentPage: page.page,
          totalPages: page.totalPages,
          consentCounts: page.consent,
        };
      },
      async listContactIds({ list }, ctx) {
        const caller = callerOf(ctx);
        if (!list) return { contactIds: [] };
        const req = list;
        const contacts = await queryContacts(deps, scopeOf(caller, req.projectId), {
          query: req.query,
          tags: req.tags,
          consent: req.consent,
          contactType: req.contactType,
          customerKind: req.customerKind,
          segmentId: req.segmentId,
          tree: req.filter,
        });
        return { contactIds: contacts.map((c) => c._id) };
      },
      async tagContacts(req, ctx) {
        return { updated: await tagContacts(deps, actingFor(callerOf(ctx), req.userId), req) };
      },
      async setConsent(req, ctx) {
        const status = consentFromProto(req.status);
        if (!status)
          throw badRequest({ consent: "Consent is pending, subscribed, unsubscribed, bounced or complained" });
        const contact = await changeConsent(deps, actingFor(callerOf(ctx), req.userId), { ...req, status });
        return { contact: toContact(contact) };
      },
      async getContactLinks(req, ctx) {
        return getContactLinks(deps, callerOf(ctx), req);
      },
      async matchSegments(req, ctx) {
        const caller = callerOf(ctx);
        const scope = scopeOf({ ...caller, userId: actingUser(caller, req.userId) }, req.projectId);
        return { segmentIds: await matchSegments(deps, scope, req) };
      },
      async listContactsByDate(req, ctx) {
        const caller = callerOf(ctx);
        const scope = scopeOf({ ...caller, userId: actingUser(caller, req.userId) }, req.projectId);
        return contactsByDate(deps, scope, req);
      },
      async addInteraction(req, ctx) {
        const interaction = await addInteraction(deps, callerOf(ctx), {
          projectId: req.projectId,
          contactId: req.contactId,
          type: req.type,
          note: req.note,
          at: req.at ? timestampDate(req.at) : undefined,
        });
        return { interaction: toInteraction(interaction) };
      },
      async listInteractions(req, ctx) {
        const page = await listInteractions(deps, callerOf(ctx), req);
        return {
          interactions: page.items.map(toInteraction),
          count: page.count,
          currentPage: page.page,
          totalPages: page.totalPages,
        };
      },
      async countInteractions(req, ctx) {
        return countInteractions(deps, callerOf(ctx), req);
      },
      async exportContactData(req, ctx) {
        return { json: await exportContactData(deps, callerOf(ctx), req) };
      },
      async *exportContacts(req, ctx) {
        const caller = callerOf(ctx);
        const scope = scopeOf(caller, req.projectId);
        const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
        const customKeys = settings.customFields.map((f) => f.key);
        let contacts = await queryContacts(deps, scope, {
          query: req.query,
          tags: req.tags,
          consent: req.consent,
          contactType: req.contactType,
          customerKind: req.customerKind,
          segmentId: req.segmentId,
          sortBy: req.sortBy,
          descending: req.descending,
        });
        if (req.contactIds.length > 0) {
          const ids = new Set(req.contactIds);
          contacts = contacts.filter((c) => ids.has(c._id));
        }
        const header = csvLine([...EXPORT_COLUMNS, ...customKeys.map((k) => `custom.${k}`)]);
        yield create(ExportContactsResponseSchema, { csv: Buffer.from(header) });
        for (let at = 0; at < contacts.length; at += 500) {
          const chunk = contacts
            .slice(at, at + 500)
            .map((c) => exportRow(c, customKeys))
            .join("");
          yield create(ExportContactsResponseSchema, { csv: Buffer.from(chunk) });
        }
      },
      async uploadImportFile(requests, ctx) {
        const caller = callerOf(ctx);
        const parts: Buffer[] = [];
        let size = 0;
        let projectId = "";
        let fileName = "";
        let first = true;
        for await (const part of requests) {
          if (first) {
            projectId = part.projectId;
            fileName = part.fileName;
            first = false;
          }
          size += part.chunk.length;
          if (size > MAX_IMPORT_BYTES) throw appError("IMPORT_TOO_LARGE");
          parts.push(Buffer.from(part.chunk));
        }
        const view = await uploadImport(deps, caller, { projectId, fileName, data: Buffer.concat(parts) });
        const state = toImportState(view);
        return {
          importId: view.doc._id,
          headers: view.doc.headers,
          preview: state.preview,
          guessedMapping: state.mapping,
          delimiter: view.doc.delimiter,
          import: state,
        };
      },
      async startImport(req, ctx) {
        const view = await startImport(deps, callerOf(ctx), {
          importId: req.importId,
          mapping: req.mapping.map(({ header, target }) => ({ header, target })),
          dedupe: req.dedupe === Dedupe.SKIP ? "skip" : "update",
          inFile: req.inFile === "last" ? "last" : "first",
        });
        return { import: toImportState(view) };
      },
      async checkImport(req, ctx) {
        const checked = await checkImport(deps, callerOf(ctx), {
          importId: req.importId,
          mapping: req.mapping.map(({ header, target }) => ({ header, target })),
        });
        return {
          rows: checked.rows,
          ...checked.consent,
          failing: checked.failing,
          duplicatesInFile: checked.duplicatesInFile,
          unknown: checked.unknown,
          errors: checked.errors,
        };
      },
      async getImport(req, ctx) {
        return { import: toImportState(await getImport(deps, callerOf(ctx), req.importId)) };
      },
      async listImports(req, ctx) {
        return { imports: (await listImports(deps, callerOf(ctx), req)).map(toImportState) };
      },
      async *exportImportErrors(req, ctx) {
        const csv = await importErrorsCsv(deps, callerOf(ctx), req.importId);
        yield create(ExportImportErrorsResponseSchema, { csv: Buffer.from(csv) });
      },
      async getContactSettings(req, ctx) {
        return { settings: toSettings(await getContactSettings(deps, callerOf(ctx), req)) };
      },
      async saveContactSettings(req, ctx) {
        const s = req.settings;
        const items =
          req.list === "custom-fields"
            ? (s?.customFields ?? []).map((f) => ({
                key: f.key,
                label: f.label,
                type: f.type,
                ...(f.options.length > 0 ? { options: f.options } : {}),
              }))
            : req.list === "interaction-types"
              ? (s?.interactionTypes ?? []).map(({ key, label }) => ({ key, label }))
              : (s?.contactTypes ?? []).map(({ key, label }) => ({ key, label }));
        const saved = await saveContactSettings(deps, callerOf(ctx), {
          projectId: req.projectId,
          list: req.list,
          items,
        });
        return { settings: toSettings(saved) };
      },
      async saveSegment(req, ctx) {
        return { segment: toSegment(await saveSegment(deps, callerOf(ctx), req)) };
      },
      async listSegments(req, ctx) {
        return { segments: (await listSegments(deps, callerOf(ctx), req)).map(toSegment) };
      },
      async getSegment(req, ctx) {
        return { segment: toSegment(await getSegment(deps, callerOf(ctx), req)) };
      },
      async deleteSegment(req, ctx) {
        await deleteSegment(deps, callerOf(ctx), req);
        return {};
      },
      async addToSegment(req, ctx) {
        return { added: await addToSegment(deps, callerOf(ctx), req) };
      },
      async countSegment(req, ctx) {
        const result = await countSegment(deps, callerOf(ctx), req);
        return { count: result.count, preview: result.preview.map(toContact), consent: result.consent };
      },
      async previewConsentAsk(req, ctx) {
        return previewConsentAsk(deps, callerOf(ctx), askTarget(req.target));
      },
      async startConsentAsk(req, ctx) {
        return { run: toConsentAskRun(await startConsentAsk(deps, callerOf(ctx), askTarget(req.target))) };
      },
      async getConsentAsk(req, ctx) {
        return { run: toConsentAskRun(await getConsentAsk(deps, callerOf(ctx), req)) };
      },
      async matchContact(req, ctx) {
        const scope = scopeOf(actingFor(callerOf(ctx), req.userId), req.projectId);
        return { matches: await matchContact(deps, scope, { contactId: req.contactId, query: req.query ?? {} }) };
      },
      async *streamSegmentMembers(req, ctx) {
        const caller = callerOf(ctx);
        // A service caller names the user (the access table allows it); a user acts for themselves.
        const userId = caller.service ? req.userId : caller.userId;
        if (userId === "") throw badRequest({ userId: "userId is required" });
        const scope = scopeOf({ ...caller, userId }, req.projectId);
        const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
        const q = await segmentQuery(deps, scope, req.segmentId);
        const { contacts } = await matchContacts(deps, scope, settings, {
          ...q,
          ...(req.subscribedOnly ? { consent: "subscribed" } : {}),
        });
        for (let at = 0; at < contacts.length; at += 200) {
          yield create(StreamSegmentMembersResponseSchema, { contacts: contacts.slice(at, at + 200).map(toContact) });
        }
      },
    });
  };
}

/**
 * The caller acting for the user a service names (the access table decides which services may); a
 * user acts for themselves. @throws CR_ERR_BAD_REQUEST when a service names no user.
 */
function actingFor(caller: Caller, userId: string): Caller {
  return { ...caller, userId: actingUser(caller, userId) };
}
