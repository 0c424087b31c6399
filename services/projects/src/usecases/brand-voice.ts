import { badRequest, type Caller } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import { type BrandVoice, checkBrandVoice, EMPTY_VOICE } from "../domain/brand-voice";
import { ownedProject } from "./owned";

/** The brand voice of one of the caller's projects (empty when never set). @throws NOT_FOUND. */
export async function getBrandVoice(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<BrandVoice> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  return { ...EMPTY_VOICE, ...project.brandVoice };
}

/**
 * Replaces the brand voice of one of the caller's projects.
 * @throws NOT_FOUND (not theirs); CR_ERR_BAD_REQUEST with fields (domain/brand-voice.ts).
 */
export async function updateBrandVoice(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; brandVoice?: BrandVoice },
): Promise<BrandVoice> {
  const project = await ownedProject(deps, caller.userId, input.projectId);
  const checked = checkBrandVoice({ ...EMPTY_VOICE, ...input.brandVoice });
  if (!checked.ok) throw badRequest(checked.fields);
  await deps.stores.projects.setBrandVoice(caller.userId, project.id, checked.voice);
  return checked.voice;
}
