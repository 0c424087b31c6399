/**
 * The public marketing pages (spec section 2) and their head: each is prerendered to HTML at build
 * time (web/scripts/prerender.mjs) with this title, description and Open Graph tags, so search
 * engines and link previews read them without running the app.
 */
export interface PublicPageMeta {
  path: string;
  /** The menu label. */
  label: string;
  /** The page's title; the document's is "<title> · Crafter". */
  title: string;
  description: string;
}

export const PUBLIC_PAGES: readonly PublicPageMeta[] = [
  {
    path: "/features",
    label: "Features",
    title: "Features",
    description:
      "Blog posts, ads, emails, web pages, podcasts and social posts crafted step by step with AI, from your business profile.",
  },
  {
    path: "/usecases",
    label: "Use cases",
    title: "Use cases",
    description: "How shops, agencies, consultants and local businesses use Crafter to market every week.",
  },
  {
    path: "/why-us",
    label: "Why Crafter",
    title: "Why Crafter",
    description: "Guided workflows, your own voice and every step editable: why small businesses choose Crafter.",
  },
  {
    path: "/pricing",
    label: "Pricing",
    title: "Pricing",
    description: "Start free. Core from $24.17 a month billed yearly, Pro from $49.17: plans for every small business.",
  },
  {
    path: "/integrations/shopify",
    label: "Shopify",
    title: "Crafter for Shopify",
    description:
      "Connect your Shopify store: products become offerings and customers become contacts with their consent, kept in sync.",
  },
  {
    path: "/FAQ",
    label: "FAQ",
    title: "Frequently asked questions",
    description: "Answers about credits, plans, billing, your data and how Crafter writes.",
  },
];

export const SITE_NAME = "Crafter";

/** Where a prerendered page is written in web/dist, and read by the gateway ("/integrations/shopify" → "integrations__shopify"). */
export function prerenderedFile(path: string): string {
  return `prerendered/${path.replace(/^\//, "").replaceAll("/", "__")}.html`;
}
