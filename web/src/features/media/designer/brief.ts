import { type DesignTemplate, FONTS, type FontFamily, readableOn, TEMPLATES, type TemplateContent } from "./model";

/**
 * What a craft's earlier steps ask of the canvas (pure): the VisualDesigner brief (format → page
 * size, headline, brand colour, fonts) and the image prompts it wrote, or a VisualIdentity's palette
 * and fonts. The craft page opens the designer with it; `designFromBrief` in DesignerPage draws it.
 */
export interface DesignBrief {
  template: DesignTemplate;
  content: TemplateContent;
  /** The written image prompts, offered for generating an image inside the designer. */
  prompts: string[];
}

/** A step as the craft page holds it: its answers and its results (list sections, data). */
export interface BriefStep {
  values?: Record<string, unknown>;
  results?: readonly { sections?: Record<string, string[]>; selected?: boolean }[];
}

/** The VisualDesigner brief's formats and the template each opens on. */
export const FORMAT_TEMPLATES: Record<string, string> = {
  square: "instagram-post",
  story: "story",
  cover: "facebook-cover",
  flyer: "flyer-a5",
};

const HEX = /#[0-9a-fA-F]{6}\b/;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The results of a step that count: the selected ones when any are, else all. */
function chosen(step: BriefStep) {
  const results = step.results ?? [];
  const selected = results.filter((result) => result.selected);
  return selected.length > 0 ? selected : results;
}

/** The first answer named one of `names` in the steps, latest step first. */
function answer(steps: readonly BriefStep[], names: readonly string[]): string {
  for (const step of [...steps].reverse()) {
    for (const name of names) {
      const value = text(step.values?.[name]);
      if (value) return value;
    }
  }
  return "";
}

/** Every item of a results section (e.g. "prompts", "palette") across the steps, in order. */
function sectionItems(steps: readonly BriefStep[], key: string): string[] {
  return steps.flatMap((step) => chosen(step).flatMap((result) => result.sections?.[key] ?? [])).filter(Boolean);
}

/** A bundled font named in a text ("Montserrat / Inter, 48/18 px" → Montserrat), if any. */
export function fontIn(value: string): FontFamily | undefined {
  const lower = value.toLowerCase();
  const found = FONTS.map((font) => ({ font, at: lower.indexOf(font.family.toLowerCase()) }))
    .filter((candidate) => candidate.at >= 0)
    .sort((a, b) => a.at - b.at)[0];
  return found?.font.family;
}

/**
 * The brief of a craft's steps before its designer step:
 * - the page: the brief's `format` (square, story, cover, flyer), else an Instagram post;
 * - the headline text: `headline`, else the `subject`, else "Your headline";
 * - the colours: `primaryColor` then `accentColor` (#rrggbb answers), else the palette's colours of
 *   a VisualIdentity result (`## Palette` items "Primary: #c0392b — text #ffffff …"); the text
 *   colour is the one readable on the first;
 * - the font: `headingFont`, else the first bundled font the `## Fonts` items name;
 * - the prompts: every `## Prompts` / `## Image prompts` item (the `prompts` section).
 */
export function briefOf(steps: readonly BriefStep[]): DesignBrief {
  const format = answer(steps, ["format"]);
  const template =
    TEMPLATES.find((candidate) => candidate.id === FORMAT_TEMPLATES[format]) ??
    TEMPLATES.find((candidate) => candidate.id === "instagram-post") ??
    TEMPLATES[0]!;
  const answered = ["primaryColor", "accentColor"]
    .map((name) => answer(steps, [name]))
    .filter((value) => /^#[0-9a-fA-F]{6}$/.test(value));
  const palette = sectionItems(steps, "palette")
    .map((item) => HEX.exec(item)?.[0] ?? "")
    .filter(Boolean);
  const colours = [...new Set([...answered, ...palette].map((colour) => colour.toLowerCase()))].slice(0, 2);
  const content: TemplateContent = {};
  const headline = answer(steps, ["headline"]) || answer(steps, ["subject"]);
  if (headline) content.headline = headline.slice(0, 200);
  if (colours.length > 0) {
    const [primary, accent = "#f5b700"] = colours as [string, string?];
    content.colours = [primary, accent, readableOn(primary)];
  }
  const font = fontIn(answer(steps, ["headingFont", "font"])) ?? fontIn(sectionItems(steps, "fonts").join(" "));
  if (font) content.font = font;
  return { template, content, prompts: sectionItems(steps, "prompts").slice(0, 10) };
}

/**
 * The designer link for a VisualIdentity's results: its palette and font on an Instagram post
 * (`/app/designer?template=&colours=&font=`), or undefined when no step holds a palette.
 */
export function identityDesignerHref(steps: readonly BriefStep[]): string | undefined {
  if (sectionItems(steps, "palette").length === 0) return undefined;
  const brief = briefOf(steps);
  const query = new URLSearchParams({ template: brief.template.id });
  if (brief.content.colours) query.set("colours", brief.content.colours.join(","));
  if (brief.content.font) query.set("font", brief.content.font);
  return `/app/designer?${query.toString()}`;
}
