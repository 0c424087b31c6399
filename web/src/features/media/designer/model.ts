import { z } from "zod";

/**
 * The visual designer's pure logic (spec sections 3, 5 and 8): the design document (stages, i.e.
 * pages, and their elements), the first-child rule, recent colours per element (≤ 4, stored only
 * if new), undo/redo history (≤ 50 entries), templates in the networks' sizes and fonts. No React,
 * no canvas: DesignerPage draws what this module computes.
 */

export const HISTORY_LIMIT = 50;
export const RECENT_COLOURS_LIMIT = 4;

/** Font families shipped with the web build (@fontsource packages), and their weights. */
export const FONTS = [
  { family: "Inter", weights: [400, 700] },
  { family: "Montserrat", weights: [400, 700] },
  { family: "Playfair Display", weights: [400, 700] },
] as const;
export type FontFamily = (typeof FONTS)[number]["family"];
export const DEFAULT_FONT: FontFamily = "Inter";

export const ELEMENT_TYPES = ["background", "text", "image", "shape", "logo"] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
const coordinate = z.number().finite().min(-20000).max(20000);
const size = z.number().finite().min(0).max(20000);

export const elementSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(ELEMENT_TYPES),
  x: coordinate,
  y: coordinate,
  width: size,
  height: size,
  rotation: z.number().finite().min(-360).max(360).default(0),
  fill: colour.default("#000000"),
  text: z.string().max(2000).optional(),
  fontFamily: z.string().max(80).optional(),
  fontWeight: z.number().int().min(100).max(900).optional(),
  fontSize: z.number().min(4).max(1000).optional(),
  /** image and logo: the asset shown, by id, and its (signed, refreshed on load) URL. */
  assetId: z.string().max(64).optional(),
  src: z.string().max(4000).optional(),
  shape: z.enum(["rect", "ellipse"]).optional(),
  cornerRadius: z.number().min(0).max(10000).optional(),
});
export type DesignElement = z.output<typeof elementSchema>;

export const stageSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().max(120),
  elements: z.array(elementSchema).max(500),
});
export type DesignStage = z.output<typeof stageSchema>;

export const designSchema = z.object({
  name: z.string().min(1).max(120),
  width: z.number().int().min(16).max(8192),
  height: z.number().int().min(16).max(8192),
  stages: z.array(stageSchema).min(1).max(50),
});
export type Design = z.output<typeof designSchema>;

/** A new id; `seed` makes tests deterministic. */
let counter = 0;
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}`;
}

// ---------- the first-child rule ----------

/** A stage's first child: the background every page is created with. */
export function firstChild(stage: DesignStage | undefined): DesignElement | undefined {
  const first = stage?.elements[0];
  return first?.type === "background" ? first : undefined;
}

/**
 * Adds an element on top of a stage, only if the stage exists and its first child (the
 * background) exists (spec section 5). Answers the same design when the rule refuses.
 */
export function addElement(design: Design, stageId: string, element: DesignElement): Design {
  const stage = design.stages.find((candidate) => candidate.id === stageId);
  if (!firstChild(stage) || element.type === "background") return design;
  return mapStage(design, stageId, (found) => ({ ...found, elements: [...found.elements, element] }));
}

export function canAddElement(design: Design, stageId: string): boolean {
  return firstChild(design.stages.find((stage) => stage.id === stageId)) !== undefined;
}

function mapStage(design: Design, stageId: string, change: (stage: DesignStage) => DesignStage): Design {
  return { ...design, stages: design.stages.map((stage) => (stage.id === stageId ? change(stage) : stage)) };
}

/** Changes one element's fields; its id and type stay. */
export function updateElement(
  design: Design,
  stageId: string,
  elementId: string,
  patch: Partial<Omit<DesignElement, "id" | "type">>,
): Design {
  return mapStage(design, stageId, (stage) => ({
    ...stage,
    elements: stage.elements.map((element) => (element.id === elementId ? { ...element, ...patch } : element)),
  }));
}

/** Removes an element; the background (first child) is never removed. */
export function removeElement(design: Design, stageId: string, elementId: string): Design {
  return mapStage(design, stageId, (stage) => ({
    ...stage,
    elements: stage.elements.filter((element) => element.id !== elementId || element.type === "background"),
  }));
}

/** Moves an element one step up (+1) or down (-1) in the stack, never below the background. */
export function moveElement(design: Design, stageId: string, elementId: string, by: 1 | -1): Design {
  return mapStage(design, stageId, (stage) => {
    const from = stage.elements.findIndex((element) => element.id === elementId);
    const to = from + by;
    if (from < 1 || to < 1 || to >= stage.elements.length) return stage;
    const elements = [...stage.elements];
    const [moved] = elements.splice(from, 1);
    if (moved) elements.splice(to, 0, moved);
    return { ...stage, elements };
  });
}

// ---------- stages ----------

export function blankStage(width: number, height: number, name: string, background = "#ffffff"): DesignStage {
  return {
    id: newId("stage"),
    name,
    elements: [{ id: newId("bg"), type: "background", x: 0, y: 0, width, height, rotation: 0, fill: background }],
  };
}

export function addStage(design: Design): Design {
  return {
    ...design,
    stages: [...design.stages, blankStage(design.width, design.height, `Page ${design.stages.length + 1}`)],
  };
}

/** Removes a page; the last one stays. */
export function removeStage(design: Design, stageId: string): Design {
  if (design.stages.length <= 1) return design;
  return { ...design, stages: design.stages.filter((stage) => stage.id !== stageId) };
}

// ---------- recent colours ----------

export type RecentColours = Record<string, string[]>;

/**
 * Remembers a colour chosen for an element: stored only if new for that element (spec section 5),
 * newest first, at most 4 (spec section 8).
 */
export function rememberColour(recent: RecentColours, elementId: string, colour: string): RecentColours {
  const normalised = colour.toLowerCase();
  const current = recent[elementId] ?? [];
  if (current.includes(normalised)) return recent;
  return { ...recent, [elementId]: [normalised, ...current].slice(0, RECENT_COLOURS_LIMIT) };
}

// ---------- history ----------

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

export function historyOf<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * Records a new present. The history keeps at most 50 entries in all (spec section 8): the oldest
 * past states go first; a new change clears what could be redone.
 */
export function record<T>(history: History<T>, next: T): History<T> {
  if (Object.is(next, history.present)) return history;
  const past = [...history.past, history.present];
  return { past: past.slice(Math.max(0, past.length - (HISTORY_LIMIT - 1))), present: next, future: [] };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  const [next, ...future] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;

// ---------- templates ----------

export interface DesignTemplate {
  id: string;
  label: string;
  width: number;
  height: number;
}

/** Templates in the networks' sizes. */
export const TEMPLATES: readonly DesignTemplate[] = [
  { id: "instagram-post", label: "Instagram post", width: 1080, height: 1080 },
  { id: "instagram-portrait", label: "Instagram portrait", width: 1080, height: 1350 },
  { id: "story", label: "Story / Reel", width: 1080, height: 1920 },
  { id: "facebook-post", label: "Facebook post", width: 1200, height: 628 },
  { id: "linkedin-post", label: "LinkedIn post", width: 1200, height: 628 },
  { id: "x-post", label: "X post", width: 1600, height: 900 },
  { id: "youtube-thumbnail", label: "YouTube thumbnail", width: 1280, height: 720 },
  { id: "facebook-cover", label: "Facebook cover", width: 1640, height: 624 },
  // A5 at 300 dpi.
  { id: "flyer-a5", label: "Flyer (A5)", width: 1748, height: 2480 },
];

export interface TemplateContent {
  headline?: string;
  body?: string;
  /** Brand colours, primary first (e.g. from the VisualIdentity workflow). */
  colours?: string[];
  font?: FontFamily;
}

/**
 * A design from a template: one page with a background in the first brand colour, a headline and
 * a line of body text sized to the format, and an accent shape.
 */
export function fromTemplate(template: DesignTemplate, content: TemplateContent = {}): Design {
  const { width, height } = template;
  const [primary = "#1f2a44", accent = "#f5b700", text = "#ffffff"] = content.colours ?? [];
  const stage = blankStage(width, height, "Page 1", primary);
  const unit = Math.min(width, height);
  const margin = Math.round(unit * 0.08);
  const font = content.font ?? DEFAULT_FONT;
  const headline: DesignElement = {
    id: newId("text"),
    type: "text",
    x: margin,
    y: Math.round(height * 0.3),
    width: width - margin * 2,
    height: Math.round(unit * 0.3),
    rotation: 0,
    fill: text,
    text: content.headline ?? "Your headline",
    fontFamily: font,
    fontWeight: 700,
    fontSize: Math.round(unit * 0.09),
  };
  const body: DesignElement = {
    ...headline,
    id: newId("text"),
    y: Math.round(height * 0.3 + unit * 0.32),
    height: Math.round(unit * 0.2),
    text: content.body ?? "A line that says why it matters",
    fontWeight: 400,
    fontSize: Math.round(unit * 0.045),
  };
  const bar: DesignElement = {
    id: newId("shape"),
    type: "shape",
    shape: "rect",
    x: margin,
    y: Math.round(height * 0.3) - Math.round(unit * 0.05),
    width: Math.round(unit * 0.18),
    height: Math.max(4, Math.round(unit * 0.015)),
    rotation: 0,
    fill: accent,
  };
  return {
    name: template.label,
    width,
    height,
    stages: [{ ...stage, elements: [...stage.elements, bar, headline, body] }],
  };
}

/** A new element of a kind, centred on a page of `width` × `height`. */
export function newElement(
  type: Exclude<ElementType, "background">,
  width: number,
  height: number,
  extra: Partial<DesignElement> = {},
): DesignElement {
  const unit = Math.min(width, height);
  const base = { rotation: 0, ...extra };
  switch (type) {
    case "text":
      return {
        id: newId("text"),
        type,
        x: Math.round(width * 0.1),
        y: Math.round(height * 0.45),
        width: Math.round(width * 0.8),
        height: Math.round(unit * 0.12),
        fill: "#111111",
        text: "New text",
        fontFamily: DEFAULT_FONT,
        fontWeight: 400,
        fontSize: Math.round(unit * 0.06),
        ...base,
      };
    case "shape":
      return {
        id: newId("shape"),
        type,
        shape: "rect",
        x: Math.round(width / 2 - unit * 0.15),
        y: Math.round(height / 2 - unit * 0.15),
        width: Math.round(unit * 0.3),
        height: Math.round(unit * 0.3),
        fill: "#4f46e5",
        ...base,
      };
    case "image":
    case "logo": {
      const side = Math.round(unit * (type === "logo" ? 0.2 : 0.5));
      return {
        id: newId(type),
        type,
        x: Math.round((width - side) / 2),
        y: Math.round((height - side) / 2),
        width: side,
        height: side,
        fill: "#00000000",
        ...base,
      };
    }
  }
}

/** Reads a stored design document; undefined when it is not one. */
export function parseDesign(value: unknown): Design | undefined {
  const parsed = designSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The CSS font string Konva and `document.fonts.load` use. */
export function fontCss(element: Pick<DesignElement, "fontFamily" | "fontWeight" | "fontSize">): string {
  return `${element.fontWeight ?? 400} ${Math.round(element.fontSize ?? 32)}px "${element.fontFamily ?? DEFAULT_FONT}"`;
}

/** Dark text on a light colour, white on a dark one (relative luminance of a #rrggbb colour). */
export function readableOn(background: string | undefined): string {
  const hex = /^#([0-9a-f]{6})/i.exec(background ?? "")?.[1];
  if (!hex) return "#111111";
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? "#111111" : "#ffffff";
}
