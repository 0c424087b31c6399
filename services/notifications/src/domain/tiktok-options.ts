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
