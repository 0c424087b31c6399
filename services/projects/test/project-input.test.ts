import { describe, expect, it } from "@jest/globals";
import { cleanKeywords, PROJECT_LIMITS, validateProjectInput } from "../src/domain/project-input";

const valid = { name: "Acme Bakery", description: "Sourdough bread and pastries.", audience: "Locals" };

describe("project input", () => {
  it("accepts a minimal project and trims its fields", () => {
    expect(validateProjectInput({ name: "  Acme  ", description: " Bread " })).toEqual({
      ok: true,
      value: { name: "Acme", description: "Bread", audience: "", keywords: [], websiteUrl: "", timeZone: "" },
    });
  });

  it("takes the business's IANA time zone and refuses anything else", () => {
    const zoned = validateProjectInput({ ...valid, timeZone: " Europe/London " });
    expect(zoned.ok && zoned.value.timeZone).toBe("Europe/London");
    for (const timeZone of ["+01:00", "GMT+1", "Europe/Nowhere", "PST8PDT; drop"]) {
      expect(validateProjectInput({ ...valid, timeZone })).toEqual({
        ok: false,
        code: "CR_ERR_BAD_REQUEST",
        fields: { timeZone: "Time zone must be an IANA time zone, such as Europe/London" },
      });
    }
  });

  it("requires a name and a description", () => {
    expect(validateProjectInput({ name: " ", description: "" })).toEqual({
      ok: false,
      code: "CR_ERR_BAD_REQUEST",
      fields: { name: "Name is required", description: "Description is required" },
    });
  });

  it("limits name to 120 and description to 5000 characters", () => {
    expect(validateProjectInput({ ...valid, name: "n".repeat(120) }).ok).toBe(true);
    expect(validateProjectInput({ ...valid, description: "d".repeat(5000) }).ok).toBe(true);
    const result = validateProjectInput({ ...valid, name: "n".repeat(121), description: "d".repeat(5001) });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.fields.name).toBe("Name must be at most 120 characters");
      expect(result.fields.description).toBe("Description must be at most 5000 characters");
    }
  });

  it("limits the audience", () => {
    const result = validateProjectInput({ ...valid, audience: "a".repeat(PROJECT_LIMITS.audience + 1) });
    expect(result.ok).toBe(false);
  });

  describe("keywords", () => {
    it("are trimmed, emptied ones dropped and duplicates removed case-insensitively", () => {
      expect(cleanKeywords([" bread ", "Bread", "", "  ", "sour  dough", "pastry", "PASTRY"])).toEqual([
        "bread",
        "sour dough",
        "pastry",
      ]);
    });

    it("allow 20 after de-duplication, not 21", () => {
      const twenty = Array.from({ length: 20 }, (_, i) => `k${i}`);
      expect(validateProjectInput({ ...valid, keywords: [...twenty, "K0", "k1 "] }).ok).toBe(true);
      const result = validateProjectInput({ ...valid, keywords: [...twenty, "k20"] });
      expect(result).toEqual({ ok: false, code: "CR_ERR_BAD_REQUEST", fields: { keywords: "At most 20 keywords" } });
    });

    it("are at most 60 characters each", () => {
      expect(validateProjectInput({ ...valid, keywords: ["k".repeat(60)] }).ok).toBe(true);
      const result = validateProjectInput({ ...valid, keywords: ["ok", "k".repeat(61)] });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fields.keywords).toBe("Each keyword must be at most 60 characters");
    });
  });

  describe("website URL (spec URL rule, scheme-less allowed)", () => {
    const url = (websiteUrl: string) => validateProjectInput({ ...valid, websiteUrl });

    it.each([
      ["https://acme.com", "https://acme.com/"],
      ["http://www.acme.co.uk/about", "http://www.acme.co.uk/about"],
      ["ftp://files.acme.org", "ftp://files.acme.org/"],
      ["acme.com", "https://acme.com/"],
      ["www.acme-bakery.com/shop?x=1", "https://www.acme-bakery.com/shop?x=1"],
      ["  acme.photography  ", "https://acme.photography/"],
      ["https://ACME.COM", "https://acme.com/"],
      ["acme.com:8080/menu", "https://acme.com:8080/menu"],
    ])("accepts %s as %s", (input, normalized) => {
      expect(url(input)).toEqual({ ok: true, value: expect.objectContaining({ websiteUrl: normalized }) });
    });

    it.each([
      ["localhost", "single label"],
      ["https://intranet", "single label with scheme"],
      ["acme.c", "last label of 1 character"],
      ["acme.abcdefghijklmno", "last label of 15 characters"],
      ["mailto:me@acme.com", "other scheme"],
      ["javascript:alert(1)", "script scheme"],
      ["gopher://acme.com", "unsupported scheme"],
      ["acme..com", "empty label"],
      ["acme_bakery.com", "underscore in a label"],
      ["acme .com", "space"],
      ["https://", "no host"],
      ["user:secret@acme.com", "credentials"],
      ["https://user@acme.com", "user name"],
    ])("rejects %s (%s) with InvalidUrl", (input) => {
      expect(url(input)).toEqual({ ok: false, code: "InvalidUrl", fields: { websiteUrl: "Invalid URL" } });
    });

    it("accepts the longest allowed last label (14 characters)", () => {
      expect(url("acme.abcdefghijklmn").ok).toBe(true);
    });

    it("treats an empty or blank URL as no website", () => {
      expect(url("   ")).toEqual({ ok: true, value: expect.objectContaining({ websiteUrl: "" }) });
    });

    it("reports a bad URL among other errors as a bad request naming every field", () => {
      expect(validateProjectInput({ name: "", description: "d", websiteUrl: "nope" })).toEqual({
        ok: false,
        code: "CR_ERR_BAD_REQUEST",
        fields: { name: "Name is required", websiteUrl: "Invalid URL" },
      });
    });
  });
});
