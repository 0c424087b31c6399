/** Shopify's store domains, as the owner types one and the services check it. */

/**
 * A shop's domain as typed by an owner (`their-store.myshopify.com`, with or without `https://`,
 * a trailing `/admin` or slash, any case), normalised to `their-store.myshopify.com`.
 * @returns null unless it is one label of letters, digits and hyphens under `suffix` (Shopify's
 *   `/^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$/`).
 */
export function normaliseShopDomain(input: string, suffix = "myshopify.com"): string | null {
  if (typeof input !== "string" || input.length > 255) return null;
  let text = input.trim().toLowerCase();
  text = text.replace(/^https?:\/\//, "");
  text = text.replace(/\/(admin\/?)?$/, "");
  const escaped = suffix.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`^([a-z0-9][a-z0-9-]{0,59})\\.${escaped}$`).exec(text);
  return match ? text : null;
}
