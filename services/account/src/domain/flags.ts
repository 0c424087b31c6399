/**
 * Feature flags (spec section 6): every flag the product knows, its global default, and the pure
 * merge of global defaults with a user's overrides.
 */

/** Every flag named in spec section 6. */
export const FLAG_NAMES = [
  "shopify_integration",
  "image_generation_basic",
  "image_generation",
  "new_sidebar",
  "test",
  "dashboard_view",
  "zapier_integration",
  "image_edit",
  "google_integration",
  "google_business_integration",
  "tiktok_integration",
  "meta_integration",
  "first_promoter",
  "visual_designer",
  "sendgrid_integration",
  "customer_view",
  "segment_view",
  "leads_form",
  "leads_assistant",
  "google_reviews",
  "custom_domain_integration",
  "send_email_old_static_version",
  "content_calendar",
  "upload_video",
  "automation",
  "new_email",
  "sidebar_v2",
  "direct_publish_social_media",
  "email_designer_section_template",
] as const;

export type FlagName = (typeof FLAG_NAMES)[number];

/** Flags enabled for everyone unless a user override says otherwise; all others start disabled. */
export const DEFAULT_ENABLED_FLAGS: ReadonlySet<string> = new Set<FlagName>([
  "dashboard_view",
  "new_sidebar",
  "sidebar_v2",
  "content_calendar",
  "customer_view",
  "segment_view",
  "leads_form",
  "automation",
  "new_email",
  "image_generation_basic",
  "visual_designer",
]);

/** A global flag: its name and whether it is on by default. */
export interface GlobalFlag {
  name: string;
  enabled: boolean;
}

/** A per-user override of one flag. */
export interface FlagOverride {
  flag: string;
  enabled: boolean;
}

/** What the web client gates on: a feature shows only if enabled and not disabled. */
export interface FeatureFlags {
  enabledFeatures: string[];
  disabledFeatures: string[];
  /** Every known flag name, enabled or not. */
  allFeatures: string[];
}

/** The seed of the `flags` collection: every spec flag with its default. */
export function defaultGlobalFlags(): GlobalFlag[] {
  return FLAG_NAMES.map((name) => ({ name, enabled: DEFAULT_ENABLED_FLAGS.has(name) }));
}

/**
 * Merges global flags with a user's overrides. An override wins over the global default; an
 * override of a flag that is not (or no longer) global is ignored; when one flag has several
 * overrides the last one wins. Lists are sorted by name, so the result is deterministic.
 */
export function resolveFlags(globals: readonly GlobalFlag[], overrides: readonly FlagOverride[]): FeatureFlags {
  const state = new Map<string, boolean>();
  for (const flag of globals) state.set(flag.name, flag.enabled);
  for (const override of overrides) {
    if (state.has(override.flag)) state.set(override.flag, override.enabled);
  }
  const allFeatures = [...state.keys()].sort();
  return {
    enabledFeatures: allFeatures.filter((name) => state.get(name) === true),
    disabledFeatures: allFeatures.filter((name) => state.get(name) === false),
    allFeatures,
  };
}
