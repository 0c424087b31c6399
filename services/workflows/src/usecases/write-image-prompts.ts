import { badRequest, type Caller } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type BrandVoice, withBrandVoice } from "../domain/brand-voice";
import {
  IMAGE_MODELS,
  type ImageModel,
  type ImagePromptSource,
  imagePromptRequest,
  plainText,
} from "../domain/image-prompts";
import { writeText } from "../generation/write";
import { withCredit } from "./action-runner";
import { activeProjectVoice } from "./common";

export interface WriteImagePromptsInput {
  imageGenerationModel: string;
  source:
    | { case: "profile"; value: { profileId: string; isBusinessProfile: boolean } }
    | { case: "content"; value: string }
    | { case: undefined; value?: undefined };
}

/** Said on prompts the offline engine wrote. */
export const OFFLINE_PROMPTS_NOTE = "Written offline from your own words — no AI provider is configured.";

/**
 * Image prompts for a profile (read from the projects service on behalf of the user) or for a
 * smart document's content, written by the text engine in the brand voice of the profile's
 * project (a document's: the user's active project).
 * @returns `{ prompts, engine, note }`; `note` is set when written offline.
 * @throws CR_ERR_BAD_REQUEST (model not dalle/imagen, no profileId, empty content), NOT_FOUND
 * (profile), and the engine's errors (RATE_LIMITED, InternalServerError, ConflictingInputError).
 */
export async function writeImagePrompts(
  deps: WorkflowsDeps,
  caller: Caller,
  input: WriteImagePromptsInput,
): Promise<{ prompts: string[]; engine: string; note: string }> {
  const fields: Record<string, string> = {};
  const model = input.imageGenerationModel.trim();
  if (!(IMAGE_MODELS as readonly string[]).includes(model)) {
    fields.imageGenerationModel = `Choose an image model: ${IMAGE_MODELS.join(" or ")}.`;
  }
  const source = input.source;
  if (source.case === "profile" && !source.value.profileId.trim()) fields.profileId = "Profile id is required";
  if (source.case === "content" && plainText(source.value) === "") fields.content = "Content is required";
  if (source.case === undefined) fields.content = "Send a profileId or the content";
  if (Object.keys(fields).length > 0) throw badRequest(fields);

  let from: ImagePromptSource;
  let voice: BrandVoice | null;
  if (source.case === "profile") {
    const { projectId, profile } = await deps.clients.profiles.resolve(caller, {
      projectId: "",
      profileId: source.value.profileId.trim(),
    });
    if (!profile) throw badRequest({ profileId: "Profile not found." });
    from = { kind: "profile", profile, isBusinessProfile: source.value.isBusinessProfile };
    voice = await deps.clients.brandVoice.get(caller, projectId);
  } else {
    from = { kind: "content", content: source.value! };
    voice = await activeProjectVoice(deps, caller);
  }
  const engine = await deps.engines.forUser(caller.userId);
  const written = await withCredit(deps, { userId: caller.userId, reason: "ImagePromptWriter" }, () =>
    writeText(engine, withBrandVoice(imagePromptRequest(from, model as ImageModel), voice), caller.signal),
  );
  deps.logger.info({ engine: written.info.engine, usage: written.usage, kind: from.kind }, "image prompts written");
  return {
    prompts: written.output.sections?.prompts ?? [],
    engine: written.info.engine,
    note: written.info.engine === "offline" ? OFFLINE_PROMPTS_NOTE : "",
  };
}
