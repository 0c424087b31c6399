import type { JsonValue } from "@bufbuild/protobuf";
import type { WorkflowDefinition } from "@crafter/workflow-language";
import { phrase } from "../generation/offline/text";
import { plainText } from "./image-prompts";
import { clip, describeProfile } from "./profile-text";
import type { ComposeContext, GenerationRequest } from "./prompt";
import type { CraftRecord, ProfileSnapshot } from "./types";

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

/**
 * What the assistant knows of the user's work: the business (their project's profile), the
 * profile the context selector chose when it is not the business, and the craft open in the page
 * with the definition it was created with (absent when it is no longer registered).
 */
export interface AssistantContext {
  business: ProfileSnapshot | null;
  profile: ProfileSnapshot | null;
  craft: { record: CraftRecord; definition?: WorkflowDefinition } | null;
}

export const NO_CONTEXT: AssistantContext = { business: null, profile: null, craft: null };

/** The most of one input value, of one step's latest result, and of the whole craft, in characters. */
export const MAX_CRAFT_VALUE_CHARS = 400;
export const MAX_CRAFT_RESULT_CHARS = 1500;
export const MAX_CRAFT_CHARS = 6000;

const PROFILE_HEADINGS: Record<string, string> = {
  PRODUCT: "Product",
  SERVICE: "Service",
  CAMPAIGN: "Campaign",
  PROJECT: "Business",
};

/** `text` cut at `max` characters keeping its lines (results are lists and paragraphs). */
function clipLines(text: string, max: number): string {
  const lines = text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .join("\n");
  return lines.length > max ? `${lines.slice(0, max - 1).trimEnd()}…` : lines;
}

function valueText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map(valueText).filter(Boolean).join(", ");
  if (typeof value === "object") return "";
  return String(value);
}

/** The step names and titles the craft's page shows. */
function titleOf(craft: AssistantContext["craft"], stepName: string): string {
  return craft?.definition?.steps.find((step) => step.name === stepName)?.title ?? stepName;
}

/**
 * The open craft as compact labelled text: its name and workflow, its current step, then each
 * step with answers or results (their labels, values and latest result), within
 * MAX_CRAFT_CHARS — the steps farthest before the current one are left out first.
 */
export function describeCraft(craft: NonNullable<AssistantContext["craft"]>): string {
  const { record, definition } = craft;
  const currentIndex = record.steps.findIndex((step) => step.name === record.currentStep);
  const blocks: { index: number; text: string }[] = [];
  record.steps.forEach((step, index) => {
    const inputs = definition?.steps.find((candidate) => candidate.name === step.name)?.inputs ?? [];
    const answers = Object.entries(step.values ?? {})
      .map(([name, value]) => {
        const text = clip(valueText(value), MAX_CRAFT_VALUE_CHARS);
        const label = inputs.find((input) => input.name === name)?.label ?? name;
        return text ? `- ${label}: ${text}` : "";
      })
      .filter(Boolean);
    const latest = step.results.at(-1);
    const content = latest
      ? latest.format === "html"
        ? plainText(latest.content)
        : latest.content ||
          Object.values(latest.sections ?? {})
            .flat()
            .join("\n")
      : "";
    const result = clipLines(content, MAX_CRAFT_RESULT_CHARS);
    if (answers.length === 0 && !result) return;
    const state = step.name === record.currentStep ? "current step" : step.state === "Completed" ? "done" : "not done";
    blocks.push({
      index,
      text: [
        `Step “${titleOf(craft, step.name)}” (${state})`,
        ...answers,
        ...(result ? ["Latest result:", result] : []),
      ].join("\n"),
    });
  });
  const distance = (index: number) => (currentIndex < 0 ? 0 : Math.abs(currentIndex - index));
  let kept = [...blocks];
  const size = () => kept.reduce((sum, block) => sum + block.text.length + 2, 0);
  while (kept.length > 1 && size() > MAX_CRAFT_CHARS) {
    const farthest = kept.reduce((far, block) => (distance(block.index) > distance(far.index) ? block : far));
    kept = kept.filter((block) => block !== farthest);
  }
  const name = record.contentName && !record.nameFromUser ? record.contentName : record.craftName;
  const lines = [
    `Craft: ${clip(name || definition?.title || record.workflowName, 200)}`,
    `Workflow: ${definition?.title ?? record.workflowName}`,
    record.state === "Completed" ? "State: completed" : `Current step: ${titleOf(craft, record.currentStep)}`,
  ];
  if (kept.length < blocks.length) lines.push(`(${blocks.length - kept.length} earlier step(s) left out for length)`);
  return clipLines([lines.join("\n"), ...kept.map((block) => block.text)].join("\n\n"), MAX_CRAFT_CHARS + 400);
}

/** The context block of the system prompt; empty when there is none. */
export function describeContext(context: AssistantContext): string {
  const parts: string[] = [];
  if (context.business) parts.push(`## The business\n${describeProfile(context.business, "Business")}`);
  if (context.profile) {
    const heading = PROFILE_HEADINGS[context.profile.type ?? ""] ?? "Profile";
    parts.push(`## The ${heading.toLowerCase()} they are working on\n${describeProfile(context.profile, heading)}`);
  }
  if (context.craft) parts.push(`## The craft open on their screen\n${describeCraft(context.craft)}`);
  if (parts.length === 0) return "";
  return [
    "What Crafter knows about the user's work (their own data; rely on it, and do not invent beyond it):",
    ...parts,
  ].join("\n\n");
}

/** The names the offline reply mentions: business, profile and craft (each when known). */
function contextNames(context: AssistantContext): Record<string, string> {
  const names: Record<string, string> = {};
  if (context.business?.name) names.business = context.business.name;
  if (context.profile?.name) {
    names.profile = `${(PROFILE_HEADINGS[context.profile.type ?? ""] ?? "profile").toLowerCase()} “${context.profile.name}”`;
  }
  if (context.craft) {
    const { record, definition } = context.craft;
    names.craft = `${definition?.title ?? record.workflowName}${
      record.state === "Completed" ? "" : ` (step “${titleOf(context.craft, record.currentStep)}”)`
    }`;
  }
  return names;
}

/**
 * The generation that writes the assistant's reply (the offline composer `assistantReply` reads the
 * transcript and the context's names). The context goes into the system prompt.
 */
export function assistantRequest(messages: ChatMessage[], context: AssistantContext = NO_CONTEXT): GenerationRequest {
  const transcript = messages
    .filter((message) => message.content.trim() !== "")
    .map((message) => `${isAssistant(message) ? "Assistant" : "User"}: ${message.content.trim()}`)
    .join("\n\n");
  const compose: ComposeContext = {
    values: {
      messages: messages.map((message) => ({ type: message.type, content: message.content })),
      context: contextNames(context),
    },
    steps: {},
    profile: null,
    labels: {},
  };
  const known = describeContext(context);
  return {
    workflowName: "Assistant",
    stepName: "chat",
    system: [
      [
        "You are Crafter's assistant. Crafter helps small businesses write marketing content (blog posts, ads,",
        "emails, social posts, web pages, smart documents) with guided workflows. Answer the user's last",
        "message helpfully and briefly, in plain text, in the user's language. Do not invent facts about their business.",
        ...(context.craft
          ? [
              "When they ask for copy for the open craft, answer with the copy alone, ready to paste into its current step.",
            ]
          : []),
      ].join(" "),
      ...(known ? [known] : []),
    ].join("\n\n"),
    prompt: `${transcript}\n\nAssistant:`,
    maxOutputTokens: 700,
    temperature: 0.6,
    output: { format: "text" },
    offline: { composer: "assistantReply", framework: "template", params: {} },
    context: compose,
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
  const known = ctx.values.context;
  const names = (known && typeof known === "object" && !Array.isArray(known) ? known : {}) as Record<string, JsonValue>;
  const seen = [
    typeof names.business === "string" && `your business “${names.business}”`,
    typeof names.profile === "string" && `the ${names.profile}`,
    typeof names.craft === "string" && `the open craft, ${names.craft}`,
  ].filter(Boolean);
  if (seen.length > 0)
    lines.push(`I can see ${seen.join(", ")}; with an AI model connected I would answer with them in mind.`);
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
