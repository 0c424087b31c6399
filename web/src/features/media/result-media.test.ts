import { describe, expect, it } from "@jest/globals";
import { designerHref, itemAsAsset, mediaOfResult } from "./result-media";

describe("media of a craft result", () => {
  it("reads an asset, a list of assets, or a URL", () => {
    const asset = {
      id: "a1",
      url: "/media/a1.png?exp=1&sig=x",
      thumbnailUrl: "/media/t.webp",
      mime: "image/png",
      width: 1080,
      height: 1080,
    };
    expect(mediaOfResult({ data: { asset } }, "image")).toEqual([
      expect.objectContaining({ id: "a1", type: "image", width: 1080, thumbnailUrl: "/media/t.webp" }),
    ]);
    expect(
      mediaOfResult({ data: { assets: [asset, { ...asset, id: "a2" }] } }, "image").map((item) => item.id),
    ).toEqual(["a1", "a2"]);
    expect(mediaOfResult({ content: "/media/podcast.mp3?exp=1&sig=y" }, "audio")).toEqual([
      { url: "/media/podcast.mp3?exp=1&sig=y", type: "audio" },
    ]);
    expect(
      mediaOfResult({ data: { url: "/media/b.mp3", mime: "audio/mpeg", durationMs: 61000 } }, "image")[0]?.type,
    ).toBe("audio");
  });

  it("drops what is not a safe URL (scripts, protocol-relative, plain http)", () => {
    expect(mediaOfResult({ content: "javascript:alert(1)" }, "image")).toEqual([]);
    expect(mediaOfResult({ data: { url: "//evil.example/x.png" } }, "image")).toEqual([]);
    expect(mediaOfResult({ data: { assets: [{ url: "http://plain.example/x.png" }] } }, "image")).toEqual([]);
    expect(mediaOfResult({ content: "A prompt, not an image" }, "image")).toEqual([]);
  });

  it("gives the pickers an asset only when the item has an id", () => {
    expect(itemAsAsset({ url: "/media/x.png", type: "image" })).toBeNull();
    expect(itemAsAsset({ id: "x", url: "/media/x.png", type: "image" })).toMatchObject({
      id: "x",
      thumbnailUrl: "/media/x.png",
    });
  });
});

describe("the designer link of a visual result", () => {
  it("applies the headline, brand colours and font", () => {
    const href = designerHref({
      content: "## Autumn wheel truing\nBook this week",
      data: { colours: ["#102030", { hex: "#ffcc00" }, "red"], fonts: { heading: "Montserrat" } },
    });
    const url = new URL(href, "https://crafter.invalid");
    expect(url.pathname).toBe("/app/designer");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      template: "instagram-post",
      headline: "Autumn wheel truing",
      colours: "#102030,#ffcc00",
      font: "Montserrat",
    });
  });

  it("still opens a template without data", () => {
    expect(designerHref({ content: "" }, "story")).toBe("/app/designer?template=story");
    // A VisualDesigner step's saved design reopens as saved.
    expect(designerHref({ data: { design: { id: "d 1", name: "Post" }, asset: { id: "a1" } } })).toBe(
      "/app/designer?id=d%201",
    );
  });
});
