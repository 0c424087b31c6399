import type { Operation } from "../../api/media";

/**
 * The crops image select viewer's presets: one output size per network placement, and the pure
 * geometry that turns a preset into the server's edit operations (crop the largest centred box of
 * the preset's aspect ratio, then resize to the exact size).
 */
export interface CropPreset {
  id: string;
  network: string;
  label: string;
  width: number;
  height: number;
}

export const CROP_PRESETS: readonly CropPreset[] = [
  { id: "instagram-square", network: "Instagram", label: "Instagram post (square)", width: 1080, height: 1080 },
  { id: "instagram-portrait", network: "Instagram", label: "Instagram post (portrait)", width: 1080, height: 1350 },
  { id: "story", network: "Instagram", label: "Story / Reel", width: 1080, height: 1920 },
  { id: "facebook", network: "Facebook", label: "Facebook link post", width: 1200, height: 628 },
  { id: "linkedin", network: "LinkedIn", label: "LinkedIn post", width: 1200, height: 628 },
  { id: "x", network: "X", label: "X post", width: 1600, height: 900 },
  { id: "pinterest", network: "Pinterest", label: "Pinterest pin", width: 1000, height: 1500 },
  { id: "youtube", network: "YouTube", label: "YouTube thumbnail", width: 1280, height: 720 },
];

export function cropPreset(id: string): CropPreset | undefined {
  return CROP_PRESETS.find((preset) => preset.id === id);
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The largest box of `ratio` (width / height) inside a `width` × `height` image, centred, in whole
 * pixels and never outside the image.
 */
export function centredBox(width: number, height: number, ratio: number): Box {
  if (!(width > 0 && height > 0 && ratio > 0))
    return { x: 0, y: 0, width: Math.max(1, width), height: Math.max(1, height) };
  let boxWidth = width;
  let boxHeight = Math.round(width / ratio);
  if (boxHeight > height) {
    boxHeight = height;
    boxWidth = Math.round(height * ratio);
  }
  boxWidth = Math.max(1, Math.min(width, boxWidth));
  boxHeight = Math.max(1, Math.min(height, boxHeight));
  return {
    x: Math.floor((width - boxWidth) / 2),
    y: Math.floor((height - boxHeight) / 2),
    width: boxWidth,
    height: boxHeight,
  };
}

/** The operations that make an image of `width` × `height` into the preset's exact size. */
export function presetOperations(preset: CropPreset, width: number, height: number): Operation[] {
  const box = centredBox(width, height, preset.width / preset.height);
  return [
    { op: "crop", ...box },
    { op: "resize", width: preset.width, height: preset.height, fit: "cover" },
  ];
}

/**
 * The size of an image after the operations, as the server computes it (crop clipped to the
 * image, resize with its fit, rotation's bounding box), so presets crop the image as it is then.
 */
export function sizeAfter(
  width: number,
  height: number,
  operations: readonly Operation[],
): { width: number; height: number } {
  let w = width;
  let h = height;
  for (const operation of operations) {
    switch (operation.op) {
      case "crop": {
        const x = Math.min(operation.x, w - 1);
        const y = Math.min(operation.y, h - 1);
        w = Math.max(1, Math.min(operation.width, w - x));
        h = Math.max(1, Math.min(operation.height, h - y));
        break;
      }
      case "resize": {
        if (operation.height === undefined) {
          h = Math.max(1, Math.round((h * operation.width) / w));
          w = operation.width;
        } else if (operation.fit === "inside" || operation.fit === "outside") {
          const scale =
            operation.fit === "inside"
              ? Math.min(operation.width / w, operation.height / h)
              : Math.max(operation.width / w, operation.height / h);
          w = Math.max(1, Math.round(w * scale));
          h = Math.max(1, Math.round(h * scale));
        } else {
          w = operation.width;
          h = operation.height;
        }
        break;
      }
      case "rotate": {
        const radians = (Math.abs(operation.degrees % 180) * Math.PI) / 180;
        const cos = Math.abs(Math.cos(radians));
        const sin = Math.abs(Math.sin(radians));
        const rotatedW = Math.round(w * cos + h * sin);
        const rotatedH = Math.round(w * sin + h * cos);
        w = Math.max(1, rotatedW);
        h = Math.max(1, rotatedH);
        break;
      }
      default:
        break;
    }
  }
  return { width: w, height: h };
}
