import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";
import { brandVoiceSchema, toBrandVoiceJson } from "./gen/projects.v1.projects";

const words = z
  .array(z.string({ error: "Each entry must be text" }).max(60, "Each entry may be at most 60 characters."), {
    error: "A list of words or phrases",
  })
  .max(50, "At most 50 entries.")
  .default([]);

export const brandVoiceBody = z
  .object({
    tone: z.string({ error: "tone must be text" }).max(300, "At most 300 characters.").default(""),
    wordsToUse: words,
    wordsToAvoid: words,
    exampleCopy: z.string({ error: "exampleCopy must be text" }).max(5000, "At most 5000 characters.").default(""),
  })
  .strict();

/** /api/projects/{id}/brand-voice: read and replace (the business profile page's Brand voice tab). */
export function brandVoiceRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "put",
      path: "/api/projects/{id}/brand-voice",
      tag: "projects",
      summary: "Replace the project's brand voice (tone, words to use and avoid, example copy)",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: brandVoiceBody,
      response: brandVoiceSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as }) =>
        toBrandVoiceJson(
          (await clients.projects.updateBrandVoice({ projectId: params.id, brandVoice: body }, as)).brandVoice,
        ),
    }),
  ];
}
