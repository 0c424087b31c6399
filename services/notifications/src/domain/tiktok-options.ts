import type { ChannelKind, TikTokPostOptions } from "./social-channels";

/** TikTok's privacy levels (creator_info's `privacy_level_options` offers some of them). */
export const TIKTOK_PRIVACY_LEVELS = [
  "PUBLIC_TO_EVERYONE",
  "MUTUAL_FOLLOW_FRIENDS",
  "FOLLOWER_OF_CREATOR",
  "SELF_ONLY",
] as const;

/**
 * The TikTok options of a publish request, checked: with a TikTok channel a privacy level must be
 * chosen (TikTok's guidelines allow no default); without one, none are kept.
 * @returns the options to keep (undefined without a TikTok channel), or the problem to answer.
 */
export function tiktokOptionsOf(
  kinds: readonly ChannelKind[],
  input: { privacyLevel: string; disableComment: boolean; disableDuet: boolean; disableStitch: boolean },
): { options: TikTokPostOptions | undefined } | { problem: string } {
  if (!kinds.includes("tiktok")) return { options: undefined };
  if (!input.privacyLevel) return { problem: "Choose who can see this post on TikTok." };
  if (!(TIKTOK_PRIVACY_LEVELS as readonly string[]).includes(input.privacyLevel))
    return { problem: `TikTok's privacy level is one of ${TIKTOK_PRIVACY_LEVELS.join(", ")}.` };
  return {
    options: {
      privacyLevel: input.privacyLevel,
      disableComment: input.disableComment,
      disableDuet: input.disableDuet,
      disableStitch: input.disableStitch,
    },
  };
}

/** What the creator's settings (creator_info) allow, as TikTok's guidelines read them. */
export interface CreatorSettings {
  privacyLevelOptions: readonly string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

/**
 * Why `options` do not fit the creator's settings, per request field (empty when they fit): the
 * privacy level must be one the creator offers, and an interaction the creator turned off in TikTok
 * cannot be allowed on a post (the publish form locks it off). A photo post has comments only
 * (TikTok's photo post_info has no duet or stitch).
 */
export function creatorOptionsProblems(
  options: TikTokPostOptions,
  creator: CreatorSettings,
  kind: "photo" | "video",
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!creator.privacyLevelOptions.includes(options.privacyLevel))
    problems.tiktokPrivacyLevel = `This TikTok account cannot post as ${options.privacyLevel}; it offers ${creator.privacyLevelOptions.join(", ") || "none"}.`;
  const off = (name: string) =>
    `This TikTok account turned ${name} off in TikTok's settings: a post cannot allow them.`;
  if (creator.commentDisabled && !options.disableComment) problems.tiktokDisableComment = off("comments");
  if (kind === "video" && creator.duetDisabled && !options.disableDuet) problems.tiktokDisableDuet = off("duets");
  if (kind === "video" && creator.stitchDisabled && !options.disableStitch)
    problems.tiktokDisableStitch = off("stitches");
  return problems;
}
