import { describe, expect, it } from "@jest/globals";
import { CROP_PRESETS, centredBox, cropPreset, presetOperations, sizeAfter } from "./crops";

describe("crop presets", () => {
  it("has the networks' sizes", () => {
    const sizes = Object.fromEntries(CROP_PRESETS.map((preset) => [preset.id, `${preset.width}x${preset.height}`]));
    expect(sizes).toMatchObject({
      "instagram-square": "1080x1080",
      "instagram-portrait": "1080x1350",
      story: "1080x1920",
      facebook: "1200x628",
      linkedin: "1200x628",
      x: "1600x900",
    });
    expect(new Set(CROP_PRESETS.map((preset) => preset.id)).size).toBe(CROP_PRESETS.length);
  });

  it("crops the largest centred box of the ratio from a landscape photo", () => {
    expect(centredBox(4000, 3000, 1)).toEqual({ x: 500, y: 0, width: 3000, height: 3000 });
    expect(centredBox(4000, 3000, 1080 / 1920)).toEqual({ x: 1156, y: 0, width: 1688, height: 3000 });
  });

  it("crops from a portrait photo by height when the ratio is wider", () => {
    expect(centredBox(1000, 2000, 1600 / 900)).toEqual({ x: 0, y: 718, width: 1000, height: 563 });
  });

  it("never leaves the image, even for tiny or degenerate sizes", () => {
    for (const [width, height] of [
      [1, 1],
      [3, 1000],
      [1000, 3],
    ] as const) {
      for (const preset of CROP_PRESETS) {
        const box = centredBox(width, height, preset.width / preset.height);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        expect(box.width).toBeGreaterThanOrEqual(1);
        expect(box.height).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("turns Instagram's square into a crop then an exact resize", () => {
    const preset = cropPreset("instagram-square");
    if (!preset) throw new Error("no preset");
    expect(presetOperations(preset, 1600, 1200)).toEqual([
      { op: "crop", x: 200, y: 0, width: 1200, height: 1200 },
      { op: "resize", width: 1080, height: 1080, fit: "cover" },
    ]);
  });
});

describe("the size after edits", () => {
  it("follows crops, resizes and rotations", () => {
    expect(sizeAfter(4000, 3000, [])).toEqual({ width: 4000, height: 3000 });
    expect(sizeAfter(4000, 3000, [{ op: "rotate", degrees: 90 }])).toEqual({ width: 3000, height: 4000 });
    expect(sizeAfter(4000, 3000, [{ op: "rotate", degrees: -180 }])).toEqual({ width: 4000, height: 3000 });
    expect(sizeAfter(4000, 3000, [{ op: "crop", x: 3500, y: 0, width: 1000, height: 1000 }])).toEqual({
      width: 500,
      height: 1000,
    });
    expect(sizeAfter(4000, 3000, [{ op: "resize", width: 1000, fit: "cover" }])).toEqual({ width: 1000, height: 750 });
    expect(sizeAfter(4000, 3000, [{ op: "resize", width: 1000, height: 1000, fit: "inside" }])).toEqual({
      width: 1000,
      height: 750,
    });
    expect(sizeAfter(4000, 3000, [{ op: "filter", name: "sepia" }])).toEqual({ width: 4000, height: 3000 });
  });

  it("lets a preset after a rotation crop the rotated image", () => {
    const preset = cropPreset("facebook");
    if (!preset) throw new Error("no preset");
    const size = sizeAfter(3000, 4000, [{ op: "rotate", degrees: 90 }]);
    expect(presetOperations(preset, size.width, size.height)[0]).toEqual({
      op: "crop",
      x: 0,
      y: 453,
      width: 4000,
      height: 2093,
    });
  });
});
