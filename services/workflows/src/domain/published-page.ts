import { sanitizeHtml } from "@crafter/html";
import { plainText } from "./craft-index";
import type { CraftRecord, ResultRecord } from "./types";

/** The workflow whose crafts may be published as pages, and its steps the page is made of. */
export const PUBLISHABLE_WORKFLOW = "WebPageWriter";
const SECTIONS_STEP = "write";
const BRIEF_STEP = "brief";
const OUTLINE_STEP = "outline";

const MAX_TITLE = 120;
const MAX_DESCRIPTION = 160;

/**
 * HTML a craft wrote, made safe to serve on the public site: the one sanitize-html configuration,
 * with links marked external (nofollow, new tab).
 */
export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, { links: "external" });
}

/** Text escaped for HTML text content (plain text results become paragraphs). */
function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** One result as HTML: "html" as written, text as paragraphs. */
function resultHtml(result: ResultRecord): string {
  if (result.format === "html") return result.content;
  return result.content
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeText(paragraph).replaceAll("\n", "<br>")}</p>`)
    .join("\n");
}

/** The section results in page order: per item, the selected result, else the newest. */
function sectionResults(craft: Pick<CraftRecord, "steps">): ResultRecord[] {
  const step = craft.steps.find((candidate) => candidate.name === SECTIONS_STEP);
  const byItem = new Map<number, ResultRecord>();
  for (const result of step?.results ?? []) {
    const index = result.itemIndex ?? 0;
    const held = byItem.get(index);
    if (!held || (result.selected && !held.selected) || (!held.selected && result.createdAt >= held.createdAt)) {
      byItem.set(index, result);
    }
  }
  return [...byItem.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
}

function stringValue(craft: Pick<CraftRecord, "steps">, step: string, key: string): string {
  const value = craft.steps.find((candidate) => candidate.name === step)?.values[key];
  return typeof value === "string" ? value.trim() : "";
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface PageContent {
  title: string;
  description: string;
  /** Sanitized HTML of the sections, in order. */
  html: string;
}

/**
 * The page a Web Page Writer craft publishes: its sections (sanitized), its title (the hero
 * headline, else the first heading, else the craft's name) and its description (the brief's
 * description, else the page's first words), as plain text of at most 120 and 160 characters.
 * @returns null when the craft has written no section yet.
 */
export function pageContent(craft: Pick<CraftRecord, "steps">, craftName: string): PageContent | null {
  const sections = sectionResults(craft);
  const html = sanitizePageHtml(sections.map(resultHtml).join("\n")).trim();
  const text = plainText(html);
  if (!text) return null;
  const heading = /<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/i.exec(html)?.[1];
  const title = stringValue(craft, OUTLINE_STEP, "headline") || (heading ? plainText(heading) : "") || craftName;
  const description = stringValue(craft, BRIEF_STEP, "description") || text;
  return {
    title: clip(plainText(title), MAX_TITLE),
    description: clip(plainText(description), MAX_DESCRIPTION),
    html,
  };
}
