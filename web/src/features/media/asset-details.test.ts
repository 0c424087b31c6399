import { describe, expect, it } from "@jest/globals";
import { assetDetails, formatBytes } from "./asset-details";

describe("assetDetails", () => {
  it("leaves out a size that is not known (stock photos) instead of saying 0 B", () => {
    expect(assetDetails({ width: 1200, height: 800, size: 0 })).toBe("1200×800");
    expect(assetDetails({ width: 1200, height: 800, size: 250_000 })).toBe("1200×800 · 244 KB");
    expect(assetDetails({ durationMs: 42_000, size: 1_300_000 })).toBe("0:42 · 1.2 MB");
    expect(assetDetails({ size: 0 })).toBe("");
  });

  it("formats sizes in binary units", () => {
    expect([512, 2048, 5 * 1024 * 1024].map(formatBytes)).toEqual(["512 B", "2.0 KB", "5.0 MB"]);
  });
});
