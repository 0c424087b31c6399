/**
 * Platform text limits the offline composers write within, in characters (UTF-16 code units, as
 * `String.length` counts them). Each figure is the platform's own published limit or, where the
 * hard limit is far above what is shown, the length the platform recommends so nothing is cut off.
 */

export interface SocialNetwork {
  label: string;
  /** Hard limit of a post / caption. */
  maxChars: number;
  /** Roughly what shows before "see more"; the hook must fit in it. */
  foldChars: number;
  /** Hashtags worth adding (0 = the network does not use them much). */
  hashtags: number;
  source: string;
}

export const SOCIAL_NETWORKS = {
  x: {
    label: "X (Twitter)",
    maxChars: 280,
    foldChars: 280,
    hashtags: 2,
    source: "X Help Center, 'Counting characters': 280 for standard accounts",
  },
  linkedin: {
    label: "LinkedIn",
    maxChars: 3000,
    foldChars: 210,
    hashtags: 3,
    source: "LinkedIn Help, 'Share posts': posts up to 3,000 characters; ~210 shown before 'see more'",
  },
  instagram: {
    label: "Instagram",
    maxChars: 2200,
    foldChars: 125,
    hashtags: 5,
    source: "Instagram Help Center: captions up to 2,200 characters; ~125 shown in feed",
  },
  facebook: {
    label: "Facebook",
    maxChars: 63206,
    foldChars: 477,
    hashtags: 2,
    source: "Facebook post limit 63,206 characters; ~477 shown on desktop before 'See more'",
  },
  tiktok: {
    label: "TikTok",
    maxChars: 2200,
    foldChars: 100,
    hashtags: 4,
    source:
      "TikTok Content Posting API: video captions up to 2,200 characters (the app allows more for some accounts; 2,200 is safe everywhere)",
  },
  threads: {
    label: "Threads",
    maxChars: 500,
    foldChars: 500,
    hashtags: 1,
    source: "Threads Help Center: posts up to 500 characters; one topic tag per post",
  },
} as const satisfies Record<string, SocialNetwork>;

export type NetworkName = keyof typeof SOCIAL_NETWORKS;

/** Google Ads responsive search ads (Google Ads Help, 'About responsive search ads'). */
export const GOOGLE_ADS = {
  headline: 30,
  description: 90,
  path: 15,
  maxHeadlines: 15,
  maxDescriptions: 4,
} as const;

/**
 * Meta (Facebook / Instagram) ads, Meta Ads Guide: primary text recommended 125 characters (more
 * is truncated behind 'See more'), headline 40, description 30.
 */
export const META_ADS = { primaryText: 125, headline: 40, description: 30 } as const;

/** Other ad placements AdsWriter writes for: headline / body limits in characters. */
export const AD_PLATFORMS = {
  google: { label: "Google search", headline: GOOGLE_ADS.headline, body: GOOGLE_ADS.description },
  meta: { label: "Facebook / Instagram", headline: META_ADS.headline, body: META_ADS.primaryText },
  // LinkedIn Ads, 'Single image ads specs': headline 70 recommended (200 max), intro text 150 recommended.
  linkedin: { label: "LinkedIn", headline: 70, body: 150 },
  // TikTok Ads Manager: ad text 1–100 characters.
  tiktok: { label: "TikTok", headline: 40, body: 100 },
} as const;

export type AdPlatform = keyof typeof AD_PLATFORMS;

/**
 * Email: most inboxes show ~60 characters of a subject on desktop and fewer on mobile; the
 * preheader (preview text) shows ~40–130 characters depending on the client.
 */
export const EMAIL = { subject: 60, preheader: 100 } as const;

/** Search results: title ~60 characters, meta description ~155–160 before Google truncates. */
export const SEO = { title: 60, description: 160, slug: 60 } as const;
