/**
 * The TikTok posting options chosen where a post is published or scheduled, as TikTok's content
 * sharing guidelines ask: the privacy level picked by the user from the creator's own options (no
 * default), interactions off until the user turns them on, and those the creator disabled in
 * TikTok shown off and locked.
 */

/** What the creator_info query says the connected creator may do. */
export interface TikTokCreator {
  nickname: string;
  username: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

/** The user's choice in the form. */
export interface TikTokChoice {
  /** "" until chosen. */
  privacyLevel: string;
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
}

/** What the publishing request carries (TikTok's post_info terms). */
export interface TikTokPostOptions {
  privacyLevel: string;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
}

export const EMPTY_CHOICE: TikTokChoice = {
  privacyLevel: "",
  allowComment: false,
  allowDuet: false,
  allowStitch: false,
};

/** How each privacy level reads. */
export const PRIVACY_LABELS: Readonly<Record<string, string>> = {
  PUBLIC_TO_EVERYONE: "Everyone",
  MUTUAL_FOLLOW_FRIENDS: "Friends (followers you follow back)",
  FOLLOWER_OF_CREATOR: "Followers",
  SELF_ONLY: "Only me",
};

export const privacyLabel = (level: string) => PRIVACY_LABELS[level] ?? level.replace(/_/g, " ").toLowerCase();

/** Why the choice cannot be sent, or null. */
export function choiceProblem(choice: TikTokChoice, creator: TikTokCreator | undefined): string | null {
  if (!creator) return "TikTok's posting options have not loaded yet.";
  if (!choice.privacyLevel) return "Choose who can see this post on TikTok.";
  if (!creator.privacyLevelOptions.includes(choice.privacyLevel))
    return "This TikTok account does not offer that privacy level any more: choose another.";
  return null;
}

/** The request's options: an interaction the creator disabled in TikTok stays off. */
export function toPostOptions(choice: TikTokChoice, creator: TikTokCreator): TikTokPostOptions {
  return {
    privacyLevel: choice.privacyLevel,
    disableComment: creator.commentDisabled || !choice.allowComment,
    disableDuet: creator.duetDisabled || !choice.allowDuet,
    disableStitch: creator.stitchDisabled || !choice.allowStitch,
  };
}

/** TikTok's Music Usage Confirmation, which the user agrees to by posting (the guidelines' declaration). */
export const MUSIC_USAGE_URL = "https://www.tiktok.com/legal/page/global/music-usage-confirmation/en";
