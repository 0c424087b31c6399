/**
 * The assistant chat state of spec sections 3 and 4 (pure): messages (content, type defaulting to
 * "message"), their count and total length; the chat is flagged too long once the total text
 * passes ASSISTANT_CHAT_CAP characters, and clearing resets it.
 */
export const ASSISTANT_CHAT_CAP = 163_840;

export interface ChatMessage {
  content: string;
  /** "message" for the user (the default), "answer" for the assistant. */
  type: string;
}

export interface ChatState {
  messages: ChatMessage[];
  count: number;
  totalLength: number;
}

export const EMPTY_CHAT: ChatState = { messages: [], count: 0, totalLength: 0 };

export function chatMessage(content: string, type?: string | null): ChatMessage {
  return { content, type: type?.trim() ? type : "message" };
}

/** The state with one more message (count and total length follow). */
export function addMessage(state: ChatState, message: { content: string; type?: string | null }): ChatState {
  const next = chatMessage(message.content, message.type);
  return {
    messages: [...state.messages, next],
    count: state.count + 1,
    totalLength: state.totalLength + next.content.length,
  };
}

/** Flagged once the total text passes the cap (more than ASSISTANT_CHAT_CAP characters). */
export function isTooLong(state: Pick<ChatState, "totalLength">): boolean {
  return state.totalLength > ASSISTANT_CHAT_CAP;
}

/** A draft can be sent when it has text, the chat is not too long and would not become so. */
export function canSend(state: ChatState, draft: string): boolean {
  const text = draft.trim();
  return text.length > 0 && !isTooLong(state) && state.totalLength + text.length <= ASSISTANT_CHAT_CAP;
}

/** The reply of `POST /api/assistant/chat` → `{ message }`: a ChatMessage or, leniently, a string. */
export function replyMessage(result: unknown): ChatMessage | null {
  const message = (result as { message?: unknown } | null)?.message;
  if (typeof message === "string") return message ? chatMessage(message, "answer") : null;
  if (message && typeof message === "object" && typeof (message as ChatMessage).content === "string") {
    const { content, type } = message as ChatMessage;
    return chatMessage(content, type || "answer");
  }
  return null;
}

/** What the assistant is told about the page: the context selector's profile and the open craft. */
export interface ChatContext {
  profileId?: string | null;
  craftId?: string | null;
}

/**
 * The body of `POST /api/assistant/chat`: the conversation, plus `profileId` and `craftId` only
 * when known (the server refuses empty ids; absent means none).
 */
export function chatRequest(
  messages: ChatMessage[],
  context: ChatContext,
): { messages: ChatMessage[]; profileId?: string; craftId?: string } {
  const profileId = context.profileId?.trim();
  const craftId = context.craftId?.trim();
  return { messages, ...(profileId ? { profileId } : {}), ...(craftId ? { craftId } : {}) };
}

/** "Using: Business · Product · Craft", from the names known (empty parts left out); "" when none. */
export function contextLine(names: {
  business?: string | null;
  profile?: string | null;
  craft?: string | null;
}): string {
  const parts = [names.business, names.profile, names.craft]
    .map((name) => name?.trim())
    .filter((name): name is string => !!name);
  return parts.length > 0 ? `Using: ${parts.join(" · ")}` : "";
}
