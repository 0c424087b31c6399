import { describe, expect, it } from "@jest/globals";
import {
  detachSmartValue,
  fillSmartValues,
  normalizeSmartValues,
  parseSmartValues,
  smartValueToken,
} from "../src/index";

describe("smart values", () => {
  it("finds names and quoted fallbacks, with spaces and escapes", () => {
    const tokens = parseSmartValues('Hi {{ contact.firstName | "th\\"ere" }}, from {{business.name}}!');
    expect(tokens.map((t) => [t.name, t.fallback])).toEqual([
      ["contact.firstName", 'th"ere'],
      ["business.name", undefined],
    ]);
    expect(tokens[0]?.start).toBe(3);
  });

  it("fills values, falls back for missing or blank ones, and empties unknown ones", () => {
    const text = 'Hi {{contact.firstName | "there"}} {{contact.lastName}}, {{business.name}}.';
    expect(fillSmartValues(text, { "contact.firstName": "Ada", "contact.lastName": "L" })).toBe("Hi Ada L, .");
    expect(fillSmartValues(text, { "contact.firstName": "  " })).toBe("Hi there , .");
  });

  it("escapes filled values for HTML but not the template around them", () => {
    expect(
      fillSmartValues("<b>{{contact.firstName}}</b>", { "contact.firstName": '<i>"A&B"</i>' }, { escape: "html" }),
    ).toBe("<b>&lt;i&gt;&quot;A&amp;B&quot;&lt;/i&gt;</b>");
  });

  it("leaves text that only looks like a token alone", () => {
    expect(fillSmartValues("{{ 1bad }} {{a b}} {x}", {})).toBe("{{ 1bad }} {{a b}} {x}");
  });

  it("writes tokens that parse back to the same name and fallback", () => {
    const token = smartValueToken("contact.firstName", 'a "q" \\ b');
    expect(parseSmartValues(token)[0]).toMatchObject({ name: "contact.firstName", fallback: 'a "q" \\ b' });
    expect(smartValueToken("business.name")).toBe("{{business.name}}");
  });

  it("detaches one token into plain text, its fallback by default", () => {
    const text = 'Hi {{contact.firstName | "there"}} and {{contact.firstName}}';
    expect(detachSmartValue(text, 3)).toBe("Hi there and {{contact.firstName}}");
    expect(detachSmartValue(text, 3, "friend")).toBe("Hi friend and {{contact.firstName}}");
    expect(detachSmartValue(text, 4)).toBe(text);
  });

  it("reads tokens an editor wrote with escaped quotes, leaving the rest of the HTML escaped", () => {
    const written = "<p>Tom &amp; Jerry: {{contact.firstName | &quot;there&quot;}} &quot;hi&quot;</p>";
    expect(normalizeSmartValues(written)).toBe(
      '<p>Tom &amp; Jerry: {{contact.firstName | "there"}} &quot;hi&quot;</p>',
    );
  });
});
