import { describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { compose } from "../src/imaging/compose";
import { escapeXml } from "../src/imaging/xml";

describe("SVG text", () => {
  it("escapes markup and drops what XML 1.0 forbids, keeping tabs, newlines and whole emoji", () => {
    expect(escapeXml(`<b>"Tom" & 'Jo'</b>`)).toBe("&#60;b&#62;&#34;Tom&#34; &#38; &#39;Jo&#39;&#60;/b&#62;");
    expect(escapeXml("a\u0000b\u001bc\bd\uFFFEe")).toBe("abcde");
    expect(escapeXml("lone \uD83D and \uDE00 go, 😀 stays\t\n")).toBe("lone  and  go, 😀 stays\t\n");
  });

  it("composes a picture whose headline carries control characters and a lone surrogate", async () => {
    const background = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 180, b: 150 } },
    })
      .png()
      .toBuffer();
    const png = await compose({
      width: 120,
      height: 120,
      background,
      headline: "Spring\u001b sale\b \uDADC now",
      colors: ["#5b3df5", "#ffb020"],
    });
    expect((await sharp(png).metadata()).format).toBe("png");
  });
});
