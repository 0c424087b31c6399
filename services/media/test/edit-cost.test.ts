import type { Operation } from "@crafter/media-language";
import { describe, expect, it } from "@jest/globals";
import { editCost } from "../src/domain/edit-cost";
import { applyOperations, type Pixels } from "../src/imaging/edit";
import { PREVIEW_MAX_COST } from "../src/usecases/edit-image";

const ops = (...list: Operation[]) => list;

describe("editCost", () => {
  it("follows the image's size through each operation, as sharp does", async () => {
    const pixels: Pixels = { data: Buffer.alloc(300 * 200 * 3, 90), width: 300, height: 200, channels: 3 };
    const cases: Operation[][] = [
      ops({ op: "crop", x: 100, y: 50, width: 500, height: 60 }),
      ops({ op: "resize", width: 150, fit: "cover" }),
      ops({ op: "resize", width: 120, height: 120, fit: "inside" }),
      ops({ op: "resize", width: 120, height: 120, fit: "outside" }),
      ops({ op: "resize", width: 90, height: 40, fit: "fill" }),
      ops({ op: "rotate", degrees: 90 }),
      ops({ op: "rotate", degrees: 30 }, { op: "filter", name: "blur", amount: 10 }),
    ];
    for (const list of cases) {
      const done = await applyOperations(pixels, list);
      const { width, height } = editCost(300, 200, list);
      // Rotations by other angles may differ by a pixel of rounding.
      expect([Math.abs(width - done.width) <= 1, Math.abs(height - done.height) <= 1]).toEqual([true, true]);
    }
  });

  it("sums the output pixels of every operation, scaled onto a preview's base", () => {
    expect(editCost(100, 100, ops({ op: "filter", name: "grayscale" }, { op: "filter", name: "sepia" })).cost).toBe(
      20_000,
    );
    // Half-size base: a resize to 400 px (original pixels) is 200 px on it.
    expect(editCost(100, 100, ops({ op: "resize", width: 400, height: 400, fit: "fill" }), 0.5)).toEqual({
      width: 200,
      height: 200,
      cost: 40_000,
    });
  });

  it("puts the 9.7 s preview (resize to 8192², rotate, blur) over the preview limit, and everyday edits under it", () => {
    const attack = ops(
      { op: "resize", width: 8192, height: 8192, fit: "fill" },
      { op: "rotate", degrees: 45 },
      { op: "filter", name: "blur", amount: 300 },
    );
    expect(editCost(1200, 800, attack).cost).toBeGreaterThan(PREVIEW_MAX_COST);
    const everyday = ops(
      { op: "crop", x: 0, y: 0, width: 1000, height: 700 },
      { op: "rotate", degrees: 5 },
      { op: "filter", name: "brightness", amount: 120 },
      { op: "text", text: "Sale", x: 10, y: 10, size: 48, color: "#fff" },
    );
    expect(editCost(1200, 800, everyday).cost).toBeLessThan(PREVIEW_MAX_COST);
    const fifty = Array.from({ length: 50 }, (): Operation => ({ op: "filter", name: "contrast", amount: 110 }));
    expect(editCost(1200, 1200, fifty).cost).toBeLessThan(PREVIEW_MAX_COST);
  });
});

describe("applyOperations' time budget", () => {
  it("stops an edit past its budget with MEDIA_EDIT_TOO_COSTLY", async () => {
    const pixels: Pixels = { data: Buffer.alloc(64 * 64 * 3, 90), width: 64, height: 64, channels: 3 };
    const many = Array.from({ length: 50 }, (): Operation => ({ op: "filter", name: "blur", amount: 30 }));
    await expect(applyOperations(pixels, many, 1, 0)).rejects.toMatchObject({ code: "MEDIA_EDIT_TOO_COSTLY" });
    expect((await applyOperations(pixels, many.slice(0, 2), 1, 10_000)).width).toBe(64);
  });
});
