import { businessAddressOf } from "../campaigns/campaign-form";

/** Sample values the preview fills in, so fallbacks and values both show. */
export const PREVIEW_VALUES: Readonly<Record<string, string>> = {
  "contact.firstName": "Ada",
  "contact.lastName": "Lovelace",
  "contact.email": "ada@example.com",
  "business.name": "Your business",
  "business.address": "1 Main Street, Springfield",
  unsubscribe_url: "#unsubscribe",
  preferences_url: "#preferences",
};

/**
 * The preview's values with the business profile's own name and postal address when it has them
 * (the address's lines joined by ", ", as in a sent email's footer); the samples otherwise.
 */
export function previewValues(
  profile: { name?: string; fields?: Record<string, unknown> } | null | undefined,
): Record<string, string> {
  const address = businessAddressOf(profile)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join(", ");
  const name = profile?.name?.trim() ?? "";
  return {
    ...PREVIEW_VALUES,
    ...(name ? { "business.name": name } : {}),
    ...(address ? { "business.address": address } : {}),
  };
}
