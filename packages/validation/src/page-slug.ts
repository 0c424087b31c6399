/**
 * The address of a page published from a Web Page Writer craft (`/<slug>`): 3 to 60
 * lowercase letters, digits and single hyphens, never starting or ending with a hyphen, and none of
 * the site's own first path segments. Shared by workflows (which stores and refuses), the gateway
 * (which serves `/<slug>`) and the web (which checks as the user types).
 */
export const PAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const PAGE_SLUG_MIN = 3;
export const PAGE_SLUG_MAX = 60;

/**
 * First path segments the site uses or may use: every public page (spec §2), the app, the API and
 * the gateway's own paths. Compared in lowercase, so `FAQ` is refused as `faq`.
 */
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set([
  // The app, the API and what the gateway serves itself.
  "app",
  "_app",
  "api",
  "auth",
  "rpc",
  "media",
  "t",
  "f",
  "healthz",
  "metrics",
  "assets",
  "static",
  "widget",
  "prerendered",
  "favicon",
  "robots",
  "sitemap",
  // Authentication pages.
  "signin",
  "signup",
  "signout",
  "login",
  "logout",
  "register",
  "verify",
  "forgot-password",
  "reset-password",
  "confirm",
  "confirm-email",
  "confirm-sender",
  "preferences",
  "unsubscribe",
  // The public site.
  "faq",
  "usecases",
  "use-cases",
  "features",
  "why-us",
  "pricing",
  "integrations",
  "shopify",
  "about",
  "blog",
  "contact",
  "help",
  "support",
  "docs",
  "terms",
  "privacy",
  "legal",
  "security",
  "status",
  "admin",
  "settings",
  "crafter",
  "www",
  "home",
  "index",
]);

export type PageSlugProblem = "length" | "characters" | "reserved";

/** Why `slug` cannot be a page address, or null when it can. */
export function pageSlugProblem(slug: string): PageSlugProblem | null {
  if (slug.length < PAGE_SLUG_MIN || slug.length > PAGE_SLUG_MAX) return "length";
  if (!PAGE_SLUG_PATTERN.test(slug)) return "characters";
  if (RESERVED_PAGE_SLUGS.has(slug.toLowerCase())) return "reserved";
  return null;
}

/** The message the publish form shows for each problem. */
export const PAGE_SLUG_MESSAGES: Record<PageSlugProblem, string> = {
  length: `Use ${PAGE_SLUG_MIN} to ${PAGE_SLUG_MAX} characters`,
  characters: "Use lowercase letters, digits and hyphens only (no hyphen at either end)",
  reserved: "This address is reserved by Crafter. Choose another one",
};
