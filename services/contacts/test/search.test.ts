import { describe, expect, it } from "@jest/globals";
import { matchesToken, queryTokens, searchTokens, words } from "../src/domain/search";

describe("search tokens", () => {
  it("folds case and accents and splits on anything but letters and digits", () => {
    expect(words("Zoë O'Brien-Smith")).toEqual(["zoe", "o", "brien", "smith"]);
  });
  it("stores each word's prefixes so a query word finds by equality", () => {
    const tokens = searchTokens(["Johanna", "Müller", "ACME Bikes"], "Jo.Muller@Example.com");
    for (const query of ["jo", "joh", "johanna", "mul", "muller", "acme", "bik", "jo.muller@example.com"]) {
      expect(tokens).toContain(queryTokens(query)[0]);
    }
    expect(tokens).not.toContain("j");
  });
  it("finds a part of the email's local part and an address as it is typed", () => {
    const words_ = words("irossi5@mail.example");
    expect(matchesToken(words_, "irossi5@mail.example", "rossi")).toBe(true);
    expect(matchesToken(words_, "irossi5@mail.example", "irossi5@mail.ex")).toBe(true);
    expect(matchesToken(words_, "irossi5@mail.example", "ro")).toBe(false);
    expect(matchesToken(words_, "irossi5@mail.example", "ample")).toBe(false);
  });
  it("puts the longest query word first and treats a whole address as one token", () => {
    expect(queryTokens("  jo MULLER ")).toEqual(["muller", "jo"]);
    expect(queryTokens("Ada@Example.com")).toEqual(["ada@example.com"]);
    expect(queryTokens("   ")).toEqual([]);
  });
  it("matches a query token in memory exactly as the stored tokens would (the snapshot's search)", () => {
    const people: Array<[string, string, string, string]> = [
      ["Johanna", "Müller", "ACME Bikes", "Jo.Muller@Example.com"],
      ["A", "de la Cruz", "", "a@b.co"],
      ["Maximilianus", "Wolfeschlegelsteinhausen", "Über-Long Company Name GmbH", "max.w@long-domain-name.example"],
      ["", "", "", "irossi5@mail.example"],
      ["Ivo", "", "", "ivo.superlongemailaddresslocalpart@x.io"],
    ];
    const queries = [
      "a",
      "jo",
      "j",
      "joh",
      "johanna",
      "johannas",
      "mul",
      "b",
      "bikes",
      "de",
      "cruz",
      "co",
      "a@b.co",
      "wolfeschlegelste",
      "wolfeschlegelstei",
      "maximilianus",
      "uber",
      "gmbh",
      "example",
      "max",
      "zz",
      "rossi",
      "ross",
      "ro",
      "ossi5",
      "irossi5@mail.ex",
      "irossi5@m",
      "jo.muller@exa",
      "uller",
      "longemailaddressl",
      "longemailaddres",
      "addresslocalpart",
    ];
    for (const [first, last, company, email] of people) {
      const stored = searchTokens([first, last, company, email], email);
      const contactWords = [first, last, company, email].flatMap((text) => words(text));
      for (const query of queries) {
        for (const token of queryTokens(query)) {
          expect([email, token, matchesToken(contactWords, email, token)]).toEqual([
            email,
            token,
            stored.includes(token),
          ]);
        }
      }
    }
  });
});
