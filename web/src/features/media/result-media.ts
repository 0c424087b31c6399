import type { Asset } from "../../api/media";

/**
 * What a craft step's result holds of media, read tolerantly: the media action kinds
 * (ImageAppender, AudioGenerator, VisualDesigner…) put an `Asset` (or several) in the result's
 * `data` (`data.asset`, `data.assets`, or `data` itself), or a bare URL in `content`; the visual
 * designer's results carry prompts, colours and fonts. Pure, so the viewers stay thin.
 */
export interface MediaItem {
  id?: string;
  url: string;
  thumbnailUrl?: string;
  name?: string;
  width?: number;
  height?: number;
  durationMs?: number;
  type: "image" | "audio" | "video";
  source?: string;
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const SAFE_URL = /^(?:\/(?!\/)|https:\/\/)/;

function typeOf(value: Record<string, unknown>, fallback: MediaItem["type"]): MediaItem["type"] {
  const type = value.type;
  if (type === "image" || type === "audio" || type === "video") return type;
  const mime = typeof value.mime === "string" ? value.mime : "";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("image/")) return "image";
  return fallback;
}

function itemOf(value: unknown, fallback: MediaItem["type"]): MediaItem | null {
  if (typeof value === "string") return SAFE_URL.test(value) ? { url: value, type: fallback } : null;
  const found = record(value);
  if (!found) return null;
  const url = typeof found.url === "string" ? found.url : typeof found.src === "string" ? found.src : "";
  if (!SAFE_URL.test(url)) return null;
  const number = (key: string) => (typeof found[key] === "number" ? (found[key] as number) : undefined);
  const string = (key: string) => (typeof found[key] === "string" ? (found[key] as string) : undefined);
  const thumbnail = string("thumbnailUrl");
  return {
    id: string("id") ?? string("assetId"),
    url,
    thumbnailUrl: thumbnail && SAFE_URL.test(thumbnail) ? thumbnail : undefined,
    name: string("name"),
    width: number("width"),
    height: number("height"),
    durationMs: number("durationMs"),
    type: typeOf(found, fallback),
    source: string("source"),
  };
}

/** Every media item of a result, of the given kind first looked for. */
export function mediaOfResult(result: { content?: unknown; data?: unknown }, kind: MediaItem["type"]): MediaItem[] {
  const data = record(result.data);
  const candidates: unknown[] = [];
  if (data) {
    if (Array.isArray(data.assets)) candidates.push(...data.assets);
    if (data.asset) candidates.push(data.asset);
    if (Array.isArray(data.images)) candidates.push(...data.images);
    if (data.url || data.src) candidates.push(data);
  } else if (Array.isArray(result.data)) candidates.push(...result.data);
  if (candidates.length === 0) {
    if (Array.isArray(result.content)) candidates.push(...result.content);
    else if (record(result.content)) candidates.push(result.content);
    else if (typeof result.content === "string" && SAFE_URL.test(result.content.trim()))
      candidates.push(result.content.trim());
  }
  return candidates.map((candidate) => itemOf(candidate, kind)).filter((item): item is MediaItem => item !== null);
}

/** An item as the asset shape the pickers and the editing panel take (only items with an id). */
export function itemAsAsset(item: MediaItem): Asset | null {
  if (!item.id) return null;
  return {
    id: item.id,
    type: item.type,
    source: item.source ?? "AI",
    name: item.name ?? "Image",
    mime: item.type === "image" ? "image/png" : item.type === "audio" ? "audio/mpeg" : "video/mp4",
    size: 0,
    width: item.width,
    height: item.height,
    durationMs: item.durationMs,
    url: item.url,
    thumbnailUrl: item.thumbnailUrl ?? item.url,
    variants: [],
    profileIds: [],
    projectId: "",
    label: "",
    createdAt: "",
  };
}

/**
 * The designer link for a VisualDesigner / VisualIdentity result: its saved design
 * (`/app/designer?id=`), else its headline, brand colours and font applied to a network template
 * (`/app/designer?template=&headline=&colours=&font=`).
 */
export function designerHref(result: { content?: unknown; data?: unknown }, template = "instagram-post"): string {
  const data = record(result.data) ?? {};
  // A VisualDesigner step's saved design opens as it was saved.
  const saved = record(data.design)?.id;
  if (typeof saved === "string" && saved) return `/app/designer?id=${encodeURIComponent(saved)}`;
  const query = new URLSearchParams({ template });
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const headline =
    text(data.headline) ||
    text(data.title) ||
    text(typeof result.content === "string" ? result.content.split(/\r?\n/).find((line) => line.trim()) : "");
  if (headline) query.set("headline", headline.replace(/^#+\s*/, "").slice(0, 120));
  const colours = (Array.isArray(data.colours) ? data.colours : Array.isArray(data.colors) ? data.colors : [])
    .map((value) => (typeof value === "string" ? value : text(record(value)?.hex)))
    .filter((value) => /^#[0-9a-fA-F]{6}$/.test(value));
  if (colours.length) query.set("colours", colours.slice(0, 3).join(","));
  const font =
    text(data.font) || text(record(data.fonts)?.heading) || text(Array.isArray(data.fonts) ? data.fonts[0] : "");
  if (font) query.set("font", font);
  return `/app/designer?${query.toString()}`;
}
