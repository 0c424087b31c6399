import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { LeadsService } from "@crafter/proto/crafter/contacts/v1/leads_pb";
import type { ContactsDeps } from "../deps";
import type { AssistantDoc, SessionDoc } from "../store/assistant.repository";
import type { LeadFormDoc } from "../store/lead.repository";
import {
  getAssistantSession,
  getLeadAssistant,
  getPublicAssistant,
  listAssistantSessions,
  saveLeadAssistant,
  sendAssistantMessage,
} from "../usecases/assistant";
import {
  confirmConsent,
  getLeadForm,
  getPreferences,
  getPublicForm,
  listSubmissions,
  saveLeadForm,
  setPreferences,
  submitLeadForm,
  unsubscribe,
} from "../usecases/leads";

const toForm = (form: LeadFormDoc) => ({
  id: form._id,
  title: form.title,
  fields: form.fields.map((f) => ({ ...f, options: f.options ?? [] })),
  consentText: form.consentText,
  thankYouMessage: form.thankYouMessage,
});

const toAssistant = (a: AssistantDoc) => ({
  id: a._id,
  greeting: a.greeting,
  questions: a.questions,
  tone: a.tone,
  enabled: a.enabled,
});

const toSession = (s: SessionDoc, withMessages: boolean) => ({
  id: s._id,
  startedAt: timestampFromDate(new Date(s.createdAt)),
  updatedAt: timestampFromDate(new Date(s.updatedAt)),
  lead: s.lead,
  messageCount: s.messageCount ?? s.messages?.length ?? 0,
  messages: withMessages
    ? (s.messages ?? []).map((m) => ({ role: m.role, content: m.content, at: timestampFromDate(new Date(m.at)) }))
    : [],
  tooLong: (s.length ?? 0) >= 163_840,
});

/** LeadsService: the owner's lead form and assistant, and their public side (see leads.proto). */
export function leadsRoutes(deps: ContactsDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(LeadsService, {
      async getLeadForm(req, ctx) {
        return { form: toForm(await getLeadForm(deps, callerOf(ctx), req)) };
      },
      async saveLeadForm(req, ctx) {
        const form = req.form;
        const saved = await saveLeadForm(deps, callerOf(ctx), {
          projectId: req.projectId,
          form: {
            title: form?.title ?? "",
            fields: (form?.fields ?? []).map((f) => ({ ...f })),
            consentText: form?.consentText ?? "",
            thankYouMessage: form?.thankYouMessage ?? "",
          },
        });
        return { form: toForm(saved) };
      },
      async listSubmissions(req, ctx) {
        const page = await listSubmissions(deps, callerOf(ctx), req);
        return {
          submissions: page.items.map((s) => ({
            id: s._id,
            email: s.email,
            values: s.values as JsonObject,
            contactId: s.contactId,
            status: s.status,
            createdAt: timestampFromDate(new Date(s.createdAt)),
          })),
          count: page.count,
          currentPage: page.page,
          totalPages: page.totalPages,
        };
      },
      async getPublicForm(req) {
        const form = await getPublicForm(deps, req.formId);
        return { form: toForm(form), userId: form.userId, projectId: form.projectId };
      },
      async submitLeadForm(req) {
        return submitLeadForm(deps, {
          formId: req.formId,
          values: (req.values ?? {}) as Record<string, unknown>,
          submissionKey: req.submissionKey || undefined,
        });
      },
      async confirmConsent(req) {
        return confirmConsent(deps, req.token);
      },
      async getPreferences(req) {
        return getPreferences(deps, req.token);
      },
      async setPreferences(req) {
        return setPreferences(deps, req);
      },
      async unsubscribe(req) {
        return unsubscribe(deps, req.token);
      },
      async getLeadAssistant(req, ctx) {
        return { assistant: toAssistant(await getLeadAssistant(deps, callerOf(ctx), req)) };
      },
      async saveLeadAssistant(req, ctx) {
        const saved = await saveLeadAssistant(deps, callerOf(ctx), {
          projectId: req.projectId,
          settings: {
            greeting: req.assistant?.greeting ?? "",
            questions: req.assistant?.questions ?? [],
            tone: req.assistant?.tone ?? "",
            enabled: req.assistant?.enabled ?? false,
          },
          knowledge: req.knowledge,
          businessName: req.businessName,
        });
        return { assistant: toAssistant(saved) };
      },
      async listAssistantSessions(req, ctx) {
        const page = await listAssistantSessions(deps, callerOf(ctx), req);
        return {
          sessions: page.items.map((s) => toSession(s, false)),
          count: page.count,
          currentPage: page.page,
          totalPages: page.totalPages,
        };
      },
      async getAssistantSession(req, ctx) {
        return { session: toSession(await getAssistantSession(deps, callerOf(ctx), req), true) };
      },
      async getPublicAssistant(req) {
        const a = await getPublicAssistant(deps, req.assistantId);
        return { assistant: { id: a._id, greeting: a.greeting, enabled: a.enabled, title: a.businessName } };
      },
      async sendAssistantMessage(req, ctx) {
        return sendAssistantMessage(deps, req, ctx.signal);
      },
    });
  };
}
