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

/** What a business shows the public: its name and logo (lead form, double opt-in pages and email). */
export interface PublicBrand {
  /** The business profile's name, else the project's title. */
  name: string;
  /** The profile's `logoImage` (an http(s) URL or a `/media/…` path), "" when none. */
  logoUrl: string;
}

/** The public brand of one of the user's projects. @throws NOT_FOUND (not theirs). */
export async function getPublicBrand(
  deps: ProjectsDeps,
  input: { userId: string; projectId: string },
): Promise<PublicBrand> {
  const project = await ownedProject(deps, input.userId, input.projectId);
  const [profile] = await deps.stores.profiles.listFor(input.userId, project.id, "PROJECT");
  const logo = profile?.fields?.logoImage;
  return { name: profile?.name || project.title, logoUrl: typeof logo === "string" ? logo : "" };
}
