import { Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { ok, parseBody } from "../http/envelope";
import { asUser } from "../http/session";

/** Generation can take the provider's whole timeout (AI_TIMEOUT_MS, retries included). */
const GENERATION_TIMEOUT_MS = 180_000;

const imageModel = z.enum(["dalle", "imagen"], { error: "imageGenerationModel must be dalle or imagen" });

/**
 * The text-engine helpers outside crafts (spec section 7): image prompt writers and the assistant
 * chat. Shapes are checked here; limits (e.g. the chat's 163840 characters) by the workflows service.
 */
export function aiToolsRoutes(clients: Clients): Router {
  const router = Router();
  const { workflows } = clients;
  const call = (req: Parameters<typeof asUser>[0]) => ({ ...asUser(req), timeoutMs: GENERATION_TIMEOUT_MS });

  router.post("/profiles/profileImagePromptWriter", async (req, res) => {
    const body = parseBody(
      z.object({
        profileId: z.string({ error: "profileId is required" }).min(1, "profileId is required"),
        isBusinessProfile: z.boolean({ error: "isBusinessProfile must be true or false" }).default(false),
        imageGenerationModel: imageModel,
      }),
      req.body,
    );
    const answer = await workflows.writeImagePrompts(
      {
        imageGenerationModel: body.imageGenerationModel,
        source: {
          case: "profile",
          value: { profileId: body.profileId, isBusinessProfile: body.isBusinessProfile },
        },
      },
      call(req),
    );
    ok(res, { prompts: answer.prompts, engine: answer.engine, ...(answer.note ? { note: answer.note } : {}) });
  });

  router.post("/smartDocument/smartDocumentImagePromptWriter", async (req, res) => {
    const body = parseBody(
      z.object({
        content: z.string({ error: "content is required" }).min(1, "content is required"),
        imageGenerationModel: imageModel,
      }),
      req.body,
    );
    const answer = await workflows.writeImagePrompts(
      { imageGenerationModel: body.imageGenerationModel, source: { case: "content", value: body.content } },
      call(req),
    );
    ok(res, { prompts: answer.prompts, engine: answer.engine, ...(answer.note ? { note: answer.note } : {}) });
  });

  router.post("/assistant/chat", async (req, res) => {
    const body = parseBody(
      z.object({
        messages: z
          .array(
            z.object({
              type: z.string().default("message"),
              content: z.string({ error: "Each message needs its content" }),
            }),
            { error: "messages must be a list" },
          )
          .min(1, "Write a message first."),
      }),
      req.body,
    );
    const answer = await workflows.assistantChat({ messages: body.messages }, call(req));
    ok(res, {
      message: { type: answer.message?.type ?? "answer", content: answer.message?.content ?? "" },
      engine: answer.engine,
      ...(answer.note ? { note: answer.note } : {}),
    });
  });

  return router;
}
