import { appError, badRequest, type Caller } from "@crafter/kit";
import { ASSISTANT_TONES } from "@crafter/validation";
import { generateText } from "ai";
import type { ContactsDeps } from "../deps";
import {
  assistantPrompt,
  MAX_MESSAGE_CHARS,
  MAX_TRANSCRIPT_CHARS,
  offlineReply,
  splitName,
  visitorDetails,
} from "../domain/assistant";
import { checkContactFields } from "../domain/contact";
import type { AssistantDoc, AssistantSettings, SessionDoc, TranscriptMessage } from "../store/assistant.repository";
import { captureContact } from "./leads";
import { paging, scopeOf } from "./scope";

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "plans" | "links" | "logger" | "assistantModel">;

const DEFAULT_ASSISTANT: AssistantSettings = {
  greeting: "Hi! How can we help you today?",
  questions: [],
  tone: "friendly",
  enabled: false,
};

/** The project's lead assistant (created, off, on first read). */
export function getLeadAssistant(deps: Pick<Deps, "stores" | "now">, caller: Caller, input: { projectId: string }) {
  return deps.stores.assistants.assistantOf(scopeOf(caller, input.projectId), DEFAULT_ASSISTANT, deps.now());
}

/**
 * Saves the assistant's settings and what it answers from (the business profile and offerings as
 * text, read by the caller with the user's token). @throws CR_ERR_BAD_REQUEST per field.
 */
export async function saveLeadAssistant(
  deps: Pick<Deps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; settings: AssistantSettings; knowledge: string; businessName: string },
): Promise<AssistantDoc> {
  const errors: Record<string, string> = {};
  const greeting = input.settings.greeting.trim();
  if (!greeting) errors.greeting = "The assistant needs a greeting";
  else if (greeting.length > 500) errors.greeting = "A greeting has at most 500 characters";
  const questions = input.settings.questions.map((q) => q.trim()).filter(Boolean);
  if (questions.length > 10) errors.questions = "At most 10 questions";
  else if (questions.some((q) => q.length > 200)) errors.questions = "A question has at most 200 characters";
  if (!(ASSISTANT_TONES as readonly string[]).includes(input.settings.tone))
    errors.tone = `tone is one of ${ASSISTANT_TONES.join(", ")}`;
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const assistant = await getLeadAssistant(deps, caller, input);
  const saved = await deps.stores.assistants.save(assistant._id, {
    greeting,
    questions,
    tone: input.settings.tone,
    enabled: input.settings.enabled,
    knowledge: input.knowledge.slice(0, 50_000),
    businessName: input.businessName.slice(0, 200),
    updatedAt: deps.now(),
  });
  if (!saved) throw appError("NOT_FOUND", "No lead assistant.");
  return saved;
}

/** One page of the assistant's conversations, most recent first (without their messages). */
export async function listAssistantSessions(
  deps: Pick<Deps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; page: number; pageSize: number },
) {
  const assistant = await getLeadAssistant(deps, caller, input);
  const { page, pageSize } = paging(input.page, input.pageSize);
  const { items, count } = await deps.stores.assistants.page(assistant._id, page, pageSize);
  return { items, count, page, totalPages: Math.max(1, Math.ceil(count / pageSize)) };
}

/** One conversation with its transcript. @throws NOT_FOUND (also another user's or project's). */
export async function getAssistantSession(
  deps: Pick<Deps, "stores">,
  caller: Caller,
  input: { projectId: string; sessionId: string },
): Promise<SessionDoc> {
  const scope = scopeOf(caller, input.projectId);
  const session = input.sessionId.length <= 64 ? await deps.stores.assistants.session(input.sessionId) : null;
  if (!session || session.userId !== scope.userId || session.projectId !== scope.projectId)
    throw appError("NOT_FOUND", "No such conversation.");
  return session;
}

/** The widget's configuration. @throws NOT_FOUND */
export async function getPublicAssistant(deps: Pick<Deps, "stores">, assistantId: string): Promise<AssistantDoc> {
  const assistant = assistantId.length <= 64 ? await deps.stores.assistants.byId(assistantId) : null;
  if (!assistant) throw appError("NOT_FOUND", "This assistant does not exist.");
  return assistant;
}

/**
 * One visitor message: kept in the session's transcript (a new session when none is named, the named
 * one is unknown, or its transcript would pass 163,840 characters), the visitor's name and email
 * picked up and, once both are known, captured as a lead (contact source "lead assistant", consent
 * pending, LeadCaptured); the reply from the AI provider or, without one (or when it fails), from
 * the profile's own text.
 * @throws NOT_FOUND (unknown or switched-off assistant), CR_ERR_BAD_REQUEST (empty or too long message).
 */
export async function sendAssistantMessage(
  deps: Deps,
  input: { assistantId: string; sessionId: string; message: string },
  signal?: AbortSignal,
): Promise<{ sessionId: string; reply: string; leadCaptured: boolean }> {
  const assistant = await getPublicAssistant(deps, input.assistantId);
  if (!assistant.enabled) throw appError("NOT_FOUND", "This assistant is not available.");
  const message = input.message.trim();
  if (!message) throw badRequest({ message: "Type a message" });
  if (message.length > MAX_MESSAGE_CHARS) throw badRequest({ message: `At most ${MAX_MESSAGE_CHARS} characters` });
  const now = deps.now();
  let session =
    input.sessionId && input.sessionId.length <= 64 ? await deps.stores.assistants.session(input.sessionId) : null;
  if (session && session.assistantId !== assistant._id) session = null;
  if (session && session.length + message.length > MAX_TRANSCRIPT_CHARS) session = null;
  session ??= await deps.stores.assistants.startSession({
    assistantId: assistant._id,
    userId: assistant.userId,
    projectId: assistant.projectId,
    messages: [{ role: "assistant", content: assistant.greeting, at: now }],
    length: assistant.greeting.length,
    messageCount: 1,
    details: {},
    createdAt: now,
    updatedAt: now,
  });
  const details = visitorDetails(message, session.details ?? {});
  let lead = session.lead;
  let capturedNow = false;
  if (!lead && details.name && details.email) {
    const fields = checkContactFields(
      { email: details.email, ...splitName(details.name) },
      { customFields: [], contactTypes: [] },
    );
    if (fields.ok) {
      const scope = { userId: assistant.userId, projectId: assistant.projectId };
      try {
        const { contact } = await captureContact(deps, scope, fields.value, "lead assistant", signal);
        await deps.stores.contacts.update(scope, contact._id, {}, [
          deps.events.leadCaptured(
            { userId: contact.userId, projectId: contact.projectId, contactId: contact._id, email: contact.email },
            "lead assistant",
            assistant._id,
          ),
        ]);
        deps.kick();
        lead = { name: details.name, email: contact.email, contactId: contact._id };
        capturedNow = true;
      } catch (error) {
        // A full plan or a bad email keeps the conversation going without a lead.
        deps.logger.warn({ err: error, assistantId: assistant._id }, "lead assistant could not capture a lead");
      }
    } else delete details.email;
  }
  const replies = session.messages.filter((m) => m.role === "assistant").length - 1;
  const context = {
    businessName: assistant.businessName,
    knowledge: assistant.knowledge,
    questions: assistant.questions,
    replies: Math.max(0, replies),
    details,
    capturedNow,
    captured: Boolean(session.lead),
  };
  let reply = "";
  if (deps.assistantModel) {
    try {
      const history = session.messages.slice(-20).map((m) => ({
        role: m.role === "assistant" ? ("assistant" as const) : ("user" as const),
        content: m.content,
      }));
      const deadline = AbortSignal.timeout(deps.assistantModel.timeoutMs);
      const result = await generateText({
        model: deps.assistantModel.model,
        instructions: assistantPrompt({ ...context, tone: assistant.tone, captured: Boolean(lead) }),
        messages: [...history, { role: "user", content: message }],
        maxRetries: 1,
        abortSignal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      reply = result.text.trim().slice(0, 4000);
    } catch (error) {
      deps.logger.warn({ err: error, assistantId: assistant._id }, "AI provider failed: answering from the profile");
    }
  }
  if (!reply) reply = offlineReply(message, context);
  const at = deps.now();
  const messages: TranscriptMessage[] = [
    { role: "visitor", content: message, at: now },
    { role: "assistant", content: reply, at },
  ];
  await deps.stores.assistants.append(session._id, messages, { details, ...(lead ? { lead } : {}) });
  return { sessionId: session._id, reply, leadCaptured: capturedNow };
}
