import { badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type AssistantContext, assistantRequest, type ChatMessage, checkConversation } from "../domain/assistant";
import { withBrandVoice } from "../domain/brand-voice";
import { writeText } from "../generation/write";
import { withCredit } from "./action-runner";
import { loadCraft } from "./common";

/** Said on replies the offline engine wrote. */
export const OFFLINE_REPLY_NOTE = "Answered offline — no AI provider is configured.";

/**
 * What the assistant knows, read as the caller: the open craft (`craftId`, their own), the
 * profile they work for (`profileId`, through projects, so another user's is NOT_FOUND), and the
 * business of that profile's project (else the craft's, else the active project's), with that
 * project's brand voice. The craft is read first so a foreign id costs no projects call.
 * @throws NOT_FOUND (craft or profile), UNAVAILABLE when projects cannot be reached.
 */
async function contextOf(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { profileId: string; craftId: string },
): Promise<{ context: AssistantContext; projectId: string }> {
  const record = input.craftId.trim() ? await loadCraft(deps, caller, input.craftId) : null;
  const chosen = input.profileId.trim()
    ? await deps.clients.profiles.resolve(caller, { projectId: "", profileId: input.profileId.trim() })
    : null;
  const business = await deps.clients.profiles.resolve(caller, {
    projectId: chosen?.projectId || record?.projectId || "",
    profileId: "",
  });
  const profile = chosen?.profile && chosen.profile.profileId !== business.profile?.profileId ? chosen.profile : null;
  const craft = record ? { record, definition: deps.registry.get(record.workflowName, record.workflowVersion) } : null;
  return { context: { business: business.profile, profile, craft }, projectId: business.projectId };
}

/**
 * The assistant's reply to a conversation (`type` "message" is the user, "answer" the assistant),
 * knowing the business, the chosen profile and the open craft (see `contextOf`), written in the
 * brand voice of that business.
 * @returns `{ message: { type: "answer", content }, engine, note }`
 * @throws CR_ERR_BAD_REQUEST with field `messages` (no text, or over 163840 characters), NOT_FOUND
 * for a profile or craft that is not the caller's, and the engine's errors; UNAVAILABLE when the
 * projects service cannot be reached.
 */
export async function assistantChat(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { messages: { type: string; content: string }[]; profileId?: string; craftId?: string },
): Promise<{ message: ChatMessage; engine: string; note: string }> {
  const messages = input.messages.map((message) => ({
    type: message.type.trim() || "message",
    content: message.content,
  }));
  const problems = checkConversation(messages);
  if (Object.keys(problems).length > 0) throw badRequest(problems);
  const { context, projectId } = await contextOf(deps, caller, {
    profileId: input.profileId ?? "",
    craftId: input.craftId ?? "",
  });
  const voice = await deps.clients.brandVoice.get(caller, projectId);
  const engine = await deps.engines.forUser(caller.userId);
  const written = await withCredit(deps, { userId: caller.userId, reason: "Assistant" }, () =>
    writeText(engine, withBrandVoice(assistantRequest(messages, context), voice), caller.signal),
  );
  deps.logger.info(
    {
      engine: written.info.engine,
      usage: written.usage,
      messages: messages.length,
      profile: Boolean(context.profile),
      craft: Boolean(context.craft),
    },
    "assistant replied",
  );
  return {
    message: { type: "answer", content: written.output.content },
    engine: written.info.engine,
    note: written.info.engine === "offline" ? OFFLINE_REPLY_NOTE : "",
  };
}
