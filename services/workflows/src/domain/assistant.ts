import { phrase } from "../generation/offline/text";
import type { ComposeContext, GenerationRequest } from "./prompt";

/** One message of the assistant chat (spec section 3): `type` defaults to "message" (the user). */
export interface ChatMessage {
  type: string;
  content: string;
}

/** The longest conversation the assistant reads, in characters of message text (spec section 4). */
export const MAX_CHAT_CHARS = 163_840;
/** The assistant's own messages; every other type is the user's. */
const ASSISTANT_TYPES = new Set(["answer", "assistant", "response", "reply", "bot"]);

export const isAssistant = (message: ChatMessage) => ASSISTANT_TYPES.has(message.type);

/**
 * Checks a conversation before it is sent.
 * @returns field messages (empty when it is fine): no message with text, or over MAX_CHAT_CHARS.
 */
export function checkConversation(messages: ChatMessage[]): Record<string, string> {
  const total = messages.reduce((sum, message) => sum + message.content.length, 0);
  if (total > MAX_CHAT_CHARS) {
    return {
      messages: `The conversation is too long (${total} of ${MAX_CHAT_CHARS} characters). Clear it to start again.`,
    };
  }
  if (!messages.some((message) => !isAssistant(message) && message.content.trim() !== "")) {
    return { messages: "Write a message first." };
  }
  return {};
}

/** The generation that writes the assistant's reply (the offline composer `assistantReply` reads the transcript). */
export function assistantRequest(messages: ChatMessage[]): GenerationRequest {
  const transcript = messages
    .filter((message) => message.content.trim() !== "")
    .map((message) => `${isAssistant(message) ? "Assistant" : "User"}: ${message.content.trim()}`)
    .join("\n\n");
  const context: ComposeContext = {
    values: { messages: messages.map((message) => ({ type: message.type, content: message.content })) },
    steps: {},
    profile: null,
    labels: {},
  };
  return {
    workflowName: "Assistant",
    stepName: "chat",
    system: [
      "You are Crafter's assistant. Crafter helps small businesses write marketing content (blog posts, ads,",
      "emails, social posts, web pages, smart documents) with guided workflows. Answer the user's last",
      "message helpfully and briefly, in plain text, in the user's language. Do not invent facts about their business.",
    ].join(" "),
    prompt: `${transcript}\n\nAssistant:`,
    maxOutputTokens: 700,
    temperature: 0.6,
    output: { format: "text" },
    offline: { composer: "assistantReply", framework: "template", params: {} },
    context,
  };
}

/** Workflows the offline answer points to, by words in the question. */
const SUGGESTIONS: [RegExp, string][] = [
  [/\bblog|article|post about\b/i, "the Blog post workflow drafts titles, an outline and a full post from a topic"],
  [
    /\bads?\b|advert|google ads|facebook/i,
    "the Ad workflows write headlines and descriptions within each platform's limits",
  ],
  [/\bemail|newsletter/i, "the Email workflow writes a subject line and body for your audience"],
  [/\bsocial|instagram|linkedin|tiktok|tweet/i, "the Social media post workflow writes posts for each channel"],
  [/\bkeyword|seo\b/i, "Keyword research suggests keywords to write about"],
  [/\bcompetitor/i, "Competitor research shows how others position themselves"],
  [/\bimage|picture|photo/i, "the image prompt writer turns your profile or document into image prompts"],
];

/**
 * The honest answer of the offline engine: it says that no AI model is answering, restates what
 * it understood from the conversation, and points to the workflows that match the question.
 */
export function composeAssistantReply(ctx: ComposeContext): string {
  const raw = Array.isArray(ctx.values.messages) ? ctx.values.messages : [];
  const messages = raw.map((m) => m as unknown as ChatMessage).filter((m) => m && typeof m.content === "string");
  const asked = messages.filter((message) => !isAssistant(message) && message.content.trim() !== "");
  const last = asked.at(-1)?.content.trim() ?? "";
  const quoted = last.length > 200 ? `${phrase(last.slice(0, 200))}…` : last;
  const lines = [
    "I'm answering offline: no AI model is connected right now, so I can't reason about your question myself.",
    `You asked: “${quoted}”`,
  ];
  const matches = SUGGESTIONS.filter(([pattern]) => asked.some((message) => pattern.test(message.content))).map(
    ([, text]) => text,
  );
  if (matches.length > 0) {
    lines.push(`What can help now: ${matches.slice(0, 3).join("; ")}. They draft from your own inputs even offline.`);
  } else {
    lines.push("The workflows in the Create menu still draft from your own inputs while offline.");
  }
  if (asked.length > 1) lines.push(`We have exchanged ${messages.length} messages so far.`);
  return lines.join("\n\n");
}
