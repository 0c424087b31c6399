import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";

/** Generation can take the provider's whole timeout (AI_TIMEOUT_MS, retries included). */
const GENERATION_TIMEOUT_MS = 180_000;

const imageModel = z.enum(["dalle", "imagen"], { error: "imageGenerationModel must be dalle or imagen" });
const prompts = z.object({ prompts: z.array(z.string()), engine: z.string(), note: z.string().optional() });
const AI_ERRORS = [
  "NEED_SUBSCRIPTION",
  "NOT_ENOUGH_CREDITS",
  "RATE_LIMITED",
  "ConflictingInputError",
  "AI_PROVIDER_ERROR",
  "InternalServerError",
] as const;

/**
 * The text-engine helpers outside crafts (spec section 7): image prompt writers and the assistant
 * chat. Shapes are checked here; limits (e.g. the chat's 163840 characters) by the workflows service.
 */
/** The message types the workflows service reads as the assistant's, not the user's (domain/assistant.ts). */
const ASSISTANT_TYPES = ["answer", "assistant", "response", "reply", "bot"];

export function aiToolsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { workflows } = clients;
  const call = (as: { headers: { authorization: string } }) => ({ ...as, timeoutMs: GENERATION_TIMEOUT_MS });
  return [
    defineRoute({
      method: "post",
      path: "/api/profiles/profileImagePromptWriter",
      tag: "ai-tools",
      summary: "Write image prompts from a profile",
      auth: "session",
      actsInProject: true,
      body: z.object({
        profileId: id("profileId"),
        isBusinessProfile: z.boolean({ error: "isBusinessProfile must be true or false" }).default(false),
        imageGenerationModel: imageModel,
      }),
      response: prompts,
      errors: ["NOT_FOUND", ...AI_ERRORS],
      handler: async ({ body, as }) => {
        const answer = await workflows.writeImagePrompts(
          {
            imageGenerationModel: body.imageGenerationModel,
            source: {
              case: "profile",
              value: { profileId: body.profileId, isBusinessProfile: body.isBusinessProfile },
            },
          },
          call(as),
        );
        return { prompts: answer.prompts, engine: answer.engine, ...(answer.note ? { note: answer.note } : {}) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/smartDocument/smartDocumentImagePromptWriter",
      tag: "ai-tools",
      summary: "Write image prompts from a document's content",
      auth: "session",
      actsInProject: true,
      body: z.object({
        content: z
          .string({ error: "content is required" })
          .min(1, "content is required")
          .max(200_000, "content is too long"),
        imageGenerationModel: imageModel,
      }),
      response: prompts,
      errors: AI_ERRORS,
      handler: async ({ body, as }) => {
        const answer = await workflows.writeImagePrompts(
          { imageGenerationModel: body.imageGenerationModel, source: { case: "content", value: body.content } },
          call(as),
        );
        return { prompts: answer.prompts, engine: answer.engine, ...(answer.note ? { note: answer.note } : {}) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/assistant/chat",
      tag: "ai-tools",
      summary: "Ask the assistant",
      auth: "session",
      actsInProject: true,
      body: z.object({
        messages: z
          .array(
            z.object({
              type: z.string({ error: "type must be text" }).max(20, "type is too long").default("message"),
              content: z.string({ error: "Each message needs its content" }).max(163_840, "The message is too long."),
            }),
            { error: "messages must be a list" },
          )
          .min(1, "Write a message first.")
          .max(200, "At most 200 messages")
          // The workflows service answers only a conversation with one message of the user's that is not blank.
          .refine(
            (messages) => messages.some((m) => !ASSISTANT_TYPES.includes(m.type) && /\S/.test(m.content)),
            "Write a message first.",
          )
          .meta({
            contains: {
              type: "object",
              properties: { type: { not: { enum: ASSISTANT_TYPES } }, content: { type: "string", pattern: "\\S" } },
              required: ["content"],
            },
          }),
        // The context the assistant reads (the caller's own, else 404): the active profile and the open craft.
        profileId: id("profileId").optional(),
        craftId: id("craftId").optional(),
      }),
      response: z.object({
        message: z.object({ type: z.string(), content: z.string() }),
        engine: z.string(),
        note: z.string().optional(),
      }),
      errors: ["NOT_FOUND", ...AI_ERRORS],
      handler: async ({ body, as }) => {
        const answer = await workflows.assistantChat(
          { messages: body.messages, profileId: body.profileId ?? "", craftId: body.craftId ?? "" },
          call(as),
        );
        return {
          message: { type: answer.message?.type ?? "answer", content: answer.message?.content ?? "" },
          engine: answer.engine,
          ...(answer.note ? { note: answer.note } : {}),
        };
      },
    }),
  ];
}
