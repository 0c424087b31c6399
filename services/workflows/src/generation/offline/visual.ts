import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf, unique } from "./brief";
import { lowerFirst } from "./text";

/**
 * Offline visual identity: a colour palette derived from the user's brand colour by colour-wheel
 * harmonies (complementary, analogous, tints and shades, with WCAG contrast of text on each), a
 * font pairing, an imagery direction, and image prompts for the image generator (which is not
 * run here: the image steps are marked as coming).
 */

function hexToHsl(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => c / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

function hslToHex(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    hue < 60
      ? [c, x, 0]
      : hue < 120
        ? [x, c, 0]
        : hue < 180
          ? [0, c, x]
          : hue < 240
            ? [0, x, c]
            : hue < 300
              ? [x, 0, c]
              : [c, 0, x];
  return `#${[r, g, b]
    .map((v) =>
      Math.round((v + m) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

function luminance(hex: string): number {
  const value = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

const HEX = /^#[0-9a-f]{6}$/i;

/** Palette roles from a brand colour (and an optional accent). */
export function palette(primary: string, accent?: string): { role: string; hex: string }[] {
  const base = HEX.test(primary) ? primary.toLowerCase() : "#2f6f5e";
  const [h, s, l] = hexToHsl(base);
  const complement =
    accent && HEX.test(accent)
      ? accent.toLowerCase()
      : hslToHex(h + 180, Math.min(0.9, s + 0.1), Math.min(0.6, Math.max(0.4, l)));
  return [
    { role: "Primary", hex: base },
    { role: "Accent (complementary)", hex: complement },
    { role: "Secondary (analogous)", hex: hslToHex(h + 30, s, l) },
    { role: "Dark (text, footers)", hex: hslToHex(h, Math.min(s, 0.3), 0.14) },
    { role: "Light (backgrounds)", hex: hslToHex(h, Math.min(s, 0.4), 0.96) },
  ];
}

const FONT_PAIRS: Record<string, [string, string]> = {
  modern: ["Montserrat", "Inter"],
  classic: ["Playfair Display", "Source Sans 3"],
  friendly: ["Nunito", "Open Sans"],
  bold: ["Oswald", "Roboto"],
  elegant: ["Cormorant Garamond", "Lato"],
};

export function visualIdentity(ctx: ComposeContext) {
  const b = briefOf(ctx, "identity");
  const style = b.text("style") || "modern";
  const colors = palette(b.text("primaryColor"), b.text("accentColor") || undefined);
  const dark = colors[3]!.hex;
  const light = colors[4]!.hex;
  const [heading, body] = b.text("headingFont")
    ? [b.text("headingFont"), b.text("bodyFont") || FONT_PAIRS[style]?.[1] || "Inter"]
    : (FONT_PAIRS[style] ?? FONT_PAIRS.modern!);
  const moods = b.list("moods");
  return {
    palette: colors.map(
      ({ role, hex }) =>
        `${role}: ${hex} — text ${contrast(hex, dark) >= contrast(hex, light) ? `${dark} (contrast ${contrast(hex, dark).toFixed(1)}:1)` : `${light} (contrast ${contrast(hex, light).toFixed(1)}:1)`}`,
    ),
    fonts: [`Headings: ${heading}`, `Body: ${body}`, "Sizes: body 16–18 px, headings 1.25× steps (20, 25, 31, 39 px)"],
    imagery: unique([
      `Style: ${style}${moods.length ? `, ${moods.join(", ")}` : ""}.`,
      `Show ${aud(b)} using ${b.offering}, in real settings rather than stock poses.`,
      `Use the primary colour ${colors[0]!.hex} as an accent in every image; keep backgrounds near ${light}.`,
      b.keywords[0] ? `Recurring subject: ${b.keywords[0]}.` : "",
    ]),
    prompts: imagePrompts(ctx, 3),
  };
}

/** Prompts for an image generator from the brief: subject, setting, style, colours. */
export function imagePrompts(ctx: ComposeContext, count = 4): string[] {
  const b = briefOf(ctx, "prompts");
  const style = b.text("style") || "modern";
  const color = HEX.test(b.text("primaryColor")) ? ` with ${b.text("primaryColor")} accents` : "";
  const subject = b.text("subject") || b.offering;
  const moods = b.list("moods").join(", ") || "warm, natural light";
  return unique([
    `${subject} in use by ${aud(b)}, ${style} photography, ${moods}${color}, no text`,
    `Close-up of ${lowerFirst(subject)} on a clean background, ${style} product shot, soft shadows${color}`,
    `${b.business || "A small business"} workspace where ${lowerFirst(subject)} is made, documentary style, ${moods}`,
    `Flat illustration of ${b.keywords[0] ?? subject} for a ${style} brand${color}, simple shapes, generous white space`,
    `Social media banner about ${lowerFirst(b.topic)}, ${style} layout${color}, space for a headline`,
  ]).slice(0, count);
}
