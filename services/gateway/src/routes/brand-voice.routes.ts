import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";

/** A project's brand voice: used in the system prompt of every workflow (issue 12). */
export const brandVoiceSchema = z.object({
  tone: z.string(),
  wordsToUse: z.array(z.string()),
  wordsToAvoid: z.array(z.string()),
  exampleCopy: z.string(),
});

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
  const toVoice = (voice: z.infer<typeof brandVoiceSchema> | undefined) => ({
    tone: voice?.tone ?? "",
    wordsToUse: [...(voice?.wordsToUse ?? [])],
    wordsToAvoid: [...(voice?.wordsToAvoid ?? [])],
    exampleCopy: voice?.exampleCopy ?? "",
  });
  return [
    defineRoute({
      method: "get",
      path: "/api/projects/{id}/brand-voice",
      tag: "projects",
      summary: "The project's brand voice (empty fields when none was set)",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: brandVoiceSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) =>
        toVoice((await clients.projects.getBrandVoice({ projectId: params.id }, as)).brandVoice),
    }),
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
        toVoice((await clients.projects.updateBrandVoice({ projectId: params.id, brandVoice: body }, as)).brandVoice),
    }),
  ];
}
