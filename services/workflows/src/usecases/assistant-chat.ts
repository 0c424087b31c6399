import { badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { assistantRequest, type ChatMessage, checkConversation } from "../domain/assistant";
import { withBrandVoice } from "../domain/brand-voice";
import { writeText } from "../generation/write";
import { withCredit } from "./action-runner";
import { activeProjectVoice } from "./common";

/** Said on replies the offline engine wrote. */
export const OFFLINE_REPLY_NOTE = "Answered offline — no AI provider is configured.";

/**
 * The assistant's reply to a conversation (`type` "message" is the user, "answer" the assistant),
 * written in the brand voice of the user's active project.
 * @returns `{ message: { type: "answer", content }, engine, note }`
 * @throws CR_ERR_BAD_REQUEST with field `messages` (no text, or over 163840 characters), and the
 * engine's errors; UNAVAILABLE when the projects service (the brand voice) cannot be reached.
 */
export async function assistantChat(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { messages: { type: string; content: string }[] },
): Promise<{ message: ChatMessage; engine: string; note: string }> {
  const messages = input.messages.map((message) => ({
    type: message.type.trim() || "message",
    content: message.content,
  }));
  const problems = checkConversation(messages);
  if (Object.keys(problems).length > 0) throw badRequest(problems);
  const voice = await activeProjectVoice(deps, caller);
  const engine = await deps.engines.forUser(caller.userId);
  const written = await withCredit(deps, { userId: caller.userId, reason: "Assistant" }, () =>
    writeText(engine, withBrandVoice(assistantRequest(messages), voice), caller.signal),
  );
  deps.logger.info(
    { engine: written.info.engine, usage: written.usage, messages: messages.length },
    "assistant replied",
  );
  return {
    message: { type: "answer", content: written.output.content },
    engine: written.info.engine,
    note: written.info.engine === "offline" ? OFFLINE_REPLY_NOTE : "",
  };
}
