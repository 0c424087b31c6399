import { z } from "zod";

/** Largest side of an edit preview, in pixels. */
export const PREVIEW_MAX_SIDE = 1200;
/** Largest side an edit may produce (resize, crop box, text position), in pixels. */
export const MAX_EDIT_SIDE = 8192;
/** At most this many operations in one edit. */
export const MAX_OPERATIONS = 50;

const side = z.number().int().min(1).max(MAX_EDIT_SIDE);
const offset = z.number().int().min(0).max(MAX_EDIT_SIDE);
/** `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "A colour is #rgb, #rrggbb or #rrggbbaa");

export const FILTER_NAMES = ["grayscale", "sepia", "blur", "sharpen", "brightness", "contrast"] as const;

/**
 * One image edit operation (applied in order by sharp on the server):
 * - crop: a box in pixels of the image as it is at that point (clipped to it);
 * - resize: to `width` (and `height`), `fit` as CSS object-fit (cover, contain, fill, inside, outside);
 * - rotate: degrees, clockwise, any angle (corners filled transparent);
 * - filter: `amount` 0..100 (blur: sigma = amount / 10; brightness/contrast: 100 = unchanged, 0..300);
 * - text: drawn at x, y (top-left, pixels), `size` in pixels, `color` hex, `font` a family name;
 * - background: flattens transparency onto the colour.
 */
export const operationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("crop"), x: offset, y: offset, width: side, height: side }),
  z.object({
    op: z.literal("resize"),
    width: side,
    height: side.optional(),
    fit: z.enum(["cover", "contain", "fill", "inside", "outside"]).default("cover"),
  }),
  z.object({ op: z.literal("rotate"), degrees: z.number().min(-360).max(360) }),
  z.object({ op: z.literal("filter"), name: z.enum(FILTER_NAMES), amount: z.number().min(0).max(300).optional() }),
  z.object({
    op: z.literal("text"),
    text: z.string().min(1).max(500),
    x: offset,
    y: offset,
    size: z.number().int().min(4).max(1000),
    color: hexColor,
    font: z
      .string()
      .max(80)
      .regex(/^[A-Za-z0-9 -]+$/, "A font is a family name")
      .optional(),
  }),
  z.object({ op: z.literal("background"), color: hexColor }),
]);

export type Operation = z.output<typeof operationSchema>;

export const operationsSchema = z.array(operationSchema).min(1).max(MAX_OPERATIONS);

export const EXPORT_FORMATS = ["image/png", "image/jpeg", "image/webp"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The spec's export defaults: PNG, `image.png`, ZIP. */
export const EXPORT_DEFAULTS = { format: "image/png", filename: "image.png", type: "ZIP" } as const;
