import { describe, expect, it } from "@jest/globals";
import { type BriefStep, briefOf, fontIn, identityDesignerHref } from "./brief";
import { fromTemplate } from "./model";

// The VisualDesigner brief as the craft holds it: the brief's answers and its written prompts.
const brief = {
  values: { format: "story", headline: "Autumn wheel truing", subject: "A bike", primaryColor: "#102030" },
  results: [{ sections: { prompts: ["A mechanic truing a wheel at dusk", "Close-up of spokes"] } }],
};

describe("the brief a designer step opens with", () => {
  it("takes the page size from the format, the headline, the brand colour and the prompts", () => {
    const applied = briefOf([brief, { values: {} }]);
    expect(`${applied.template.width}×${applied.template.height}`).toBe("1080×1920");
    expect(applied.content.headline).toBe("Autumn wheel truing");
    // The brand colour is the page's background; the text is readable on it (white on dark).
    expect(applied.content.colours).toEqual(["#102030", "#f5b700", "#ffffff"]);
    expect(applied.prompts).toEqual(["A mechanic truing a wheel at dusk", "Close-up of spokes"]);
    const design = fromTemplate(applied.template, applied.content);
    const elements = design.stages[0]!.elements;
    expect(elements[0]).toMatchObject({ type: "background", fill: "#102030", width: 1080, height: 1920 });
    expect(elements.find((element) => element.text === "Autumn wheel truing")).toMatchObject({ fill: "#ffffff" });
  });

  it("maps every format of the brief to a page of its size", () => {
    const size = (format: string) => {
      const { template } = briefOf([{ values: { format } }]);
      return `${template.width}×${template.height}`;
    };
    expect([size("square"), size("story"), size("cover"), size("flyer"), size("unknown")]).toEqual([
      "1080×1080",
      "1080×1920",
      "1640×624",
      "1748×2480",
      "1080×1080",
    ]);
  });

  it("falls back to the subject as the headline, and uses dark text on a light brand colour", () => {
    const applied = briefOf([{ values: { subject: "Fresh bread daily", primaryColor: "#f4f1e8" } }]);
    expect(applied.content.headline).toBe("Fresh bread daily");
    expect(applied.content.colours?.[2]).toBe("#111111");
    expect(briefOf([]).content).toEqual({});
  });

  it("reads a VisualIdentity's palette and fonts, selected results first", () => {
    const identity: BriefStep = {
      values: { businessName: "Crumb & Co" },
      results: [
        { sections: { palette: ["Primary: #aaaaaa — text #111111"], fonts: ["Inter"] } },
        {
          selected: true,
          sections: {
            palette: ["Primary: #C0392B — text #ffffff (contrast 5.4:1)", "Accent: #2f6f5e — text #ffffff"],
            fonts: ["Heading: Playfair Display 700, body: Inter 400"],
            prompts: ["A warm bakery counter"],
          },
        },
      ],
    };
    const applied = briefOf([identity]);
    expect(applied.content.colours).toEqual(["#c0392b", "#2f6f5e", "#ffffff"]);
    expect(applied.content.font).toBe("Playfair Display");
    expect(applied.prompts).toEqual(["A warm bakery counter"]);
    expect(identityDesignerHref([identity])).toBe(
      "/app/designer?template=instagram-post&colours=%23c0392b%2C%232f6f5e%2C%23ffffff&font=Playfair+Display",
    );
    expect(identityDesignerHref([brief])).toBeUndefined();
  });

  it("finds the first bundled font a text names", () => {
    expect(fontIn("Montserrat / Inter, 48/18 px")).toBe("Montserrat");
    expect(fontIn("Comic Sans")).toBeUndefined();
  });
});
