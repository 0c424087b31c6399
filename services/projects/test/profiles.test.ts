import { PROFILE_FIELD_DEFS, splitProfileValues, validateProfileValues } from "@crafter/validation";
import { describe, expect, it } from "@jest/globals";
import { readReviewsCsv, validateReview } from "../src/domain/reviews";
import { sectionsPatch } from "../src/usecases/sections";

describe("profile fields of the four types", () => {
  it("lists every field the spec names, in its order", () => {
    const keys = (type: keyof typeof PROFILE_FIELD_DEFS) => PROFILE_FIELD_DEFS[type].map((def) => def.key);
    expect(keys("PRODUCT")).toEqual([
      "name",
      "keywords",
      "audience",
      "description",
      "pageUrl",
      "featureList",
      "shippingAndReturnsPolicy",
      "seoSummary",
      "pageSlug",
      "usage",
      "logoImage",
      "images",
    ]);
    expect(keys("SERVICE")).toEqual([
      "name",
      "keywords",
      "audience",
      "description",
      "benefits",
      "terms",
      "summary",
      "webPageUrl",
      "logoImage",
      "images",
    ]);
    expect(keys("CAMPAIGN")).toEqual([
      "name",
      "audience",
      "keywords",
      "tone",
      "description",
      "message",
      "startDate",
      "endDate",
      "objective",
      "slogan",
      "logoImage",
      "images",
    ]);
  });

  it("cleans a product: url with its scheme, slug normalised, lists de-duplicated", () => {
    const checked = validateProfileValues("PRODUCT", {
      name: "  Trail   Bike ",
      pageUrl: "shop.example.com/trail",
      pageSlug: "Trail Bike 2!",
      featureList: ["Carbon frame", "carbon frame", " ", "12 gears"],
      keywords: "bike, trail,Bike",
    });
    expect(checked).toEqual({
      ok: true,
      values: {
        name: "Trail Bike",
        pageUrl: "https://shop.example.com/trail",
        pageSlug: "trail-bike-2",
        featureList: ["Carbon frame", "12 gears"],
        keywords: ["bike", "trail"],
        audience: "",
        description: "",
        shippingAndReturnsPolicy: "",
        seoSummary: "",
        usage: "",
        logoImage: "",
        images: [],
      },
    });
    const { core, extra } = splitProfileValues(checked.ok ? checked.values : {});
    expect(Object.keys(core).sort()).toEqual(["audience", "description", "keywords", "name"]);
    expect(extra.pageUrl).toBe("https://shop.example.com/trail");
  });

  it("refuses a name missing, unknown keys, bad urls and dates, and a campaign ending before it starts", () => {
    expect(validateProfileValues("SERVICE", { webPageUrl: "not a url" })).toEqual({
      ok: false,
      code: "CR_ERR_BAD_REQUEST",
      fields: { name: "Name is required", webPageUrl: "Invalid URL" },
    });
    expect(validateProfileValues("SERVICE", { webPageUrl: "nope" }, { partial: true })).toEqual({
      ok: false,
      code: "InvalidUrl",
      fields: { webPageUrl: "Invalid URL" },
    });
    const campaign = validateProfileValues("CAMPAIGN", {
      name: "Spring",
      startDate: "2026-04-10",
      endDate: "2026-04-01",
      pageUrl: "x.com",
    });
    expect(campaign.ok).toBe(false);
    expect(!campaign.ok && campaign.fields).toEqual({
      endDate: "The end date must be on or after the start date",
      pageUrl: "A campaign profile has no field pageUrl",
    });
    expect(validateProfileValues("CAMPAIGN", { startDate: "2026-02-30" }, { partial: true }).ok).toBe(false);
  });

  it("keeps the business's time zone as an IANA name, empty meaning not set (UTC)", () => {
    expect(PROFILE_FIELD_DEFS.PROJECT.map((def) => def.key)).toContain("timeZone");
    expect(validateProfileValues("PROJECT", { timeZone: "America/Los_Angeles" }, { partial: true })).toEqual({
      ok: true,
      values: { timeZone: "America/Los_Angeles" },
    });
    expect(validateProfileValues("PROJECT", { timeZone: "" }, { partial: true })).toEqual({
      ok: true,
      values: { timeZone: "" },
    });
    expect(validateProfileValues("PROJECT", { timeZone: "Pacific Time" }, { partial: true })).toEqual({
      ok: false,
      code: "CR_ERR_BAD_REQUEST",
      fields: { timeZone: "Time zone must be an IANA time zone, such as Europe/London" },
    });
    expect(validateProfileValues("PROJECT", { timeZone: 3 }, { partial: true }).ok).toBe(false);
    // Only the business has a time zone.
    expect(validateProfileValues("PRODUCT", { timeZone: "Europe/London" }, { partial: true }).ok).toBe(false);
  });

  it("only lets an update change what it names", () => {
    expect(validateProfileValues("CAMPAIGN", { slogan: "Ride more" }, { partial: true })).toEqual({
      ok: true,
      values: { slogan: "Ride more" },
    });
  });
});

describe("profile sections", () => {
  it("sets only the spec's six sections, each in its shape", () => {
    expect(sectionsPatch({ profileReference: { profileReferenceId: "c1" }, results: [] })).toEqual({
      "sections.profileReference": { profileReferenceId: "c1" },
      "sections.results": [],
    });
    expect(() => sectionsPatch({ steps: {} })).toThrow();
    expect(() => sectionsPatch({ other: [] })).toThrow();
    expect(() => sectionsPatch({ inputBindingValues: { "a.b": 1 } })).toThrow();
    expect(() => sectionsPatch({ results: [{ $where: "x" }] })).toThrow();
  });
});

describe("reviews", () => {
  it("validates a review and reads star ratings", () => {
    expect(validateReview({ author: " Ann ", rating: "★★★★", text: "Great", reviewedOn: "2026-03-01" })).toEqual({
      ok: true,
      value: { author: "Ann", rating: 4, text: "Great", reviewedOn: "2026-03-01" },
    });
    expect(validateReview({ author: "", rating: 6 })).toEqual({
      ok: false,
      fields: { author: "Author is required", rating: "Rating must be a whole number from 1 to 5" },
    });
  });

  it("reads a CSV by its header names and reports bad rows by line", () => {
    const rows = readReviewsCsv(
      'Reviewer,Stars,Comment,Date\nAnn,5,"Lovely, fast",2026-01-02\nBob,9,Bad rating,\n,3,No author,\n',
    );
    expect(rows).toEqual([
      { line: 2, review: { author: "Ann", rating: 5, text: "Lovely, fast", reviewedOn: "2026-01-02" } },
      { line: 3, reason: "Rating must be a whole number from 1 to 5" },
      { line: 4, reason: "Author is required" },
    ]);
  });

  it("reads a CSV without a header as author, rating, text, date", () => {
    expect(readReviewsCsv("Cara,4/5,Good coffee")).toEqual([
      { line: 1, review: { author: "Cara", rating: 4, text: "Good coffee", reviewedOn: "" } },
    ]);
  });
});
