import { describe, expect, it } from "@jest/globals";
import { profilePrefill } from "../src/domain/profile-prefill";
import type { ProfileSnapshot } from "../src/domain/types";

const base: ProfileSnapshot = {
  profileId: "p1",
  name: "Trail Bike",
  description: "A light bike",
  audience: "Riders",
  keywords: ["bike"],
  websiteUrl: "",
};

describe("prefill from the chosen profile by input name", () => {
  it("fills a product's inputs from its type-specific fields", () => {
    const product = {
      ...base,
      type: "PRODUCT",
      fields: { featureList: ["Carbon frame"], shippingAndReturnsPolicy: "30 days", pageUrl: "https://x.com/bike" },
    };
    expect(profilePrefill("name", product)).toBe("Trail Bike");
    expect(profilePrefill("features", product)).toEqual(["Carbon frame"]);
    expect(profilePrefill("shipping", product)).toBe("30 days");
    expect(profilePrefill("pageUrl", product)).toBe("https://x.com/bike");
    expect(profilePrefill("unknownInput", product)).toBeUndefined();
  });

  it("fills a campaign's brief and a service's benefits", () => {
    const campaign = {
      ...base,
      name: "Spring sale",
      type: "CAMPAIGN",
      fields: { objective: "Sell 200 bikes", startDate: "2026-04-01", slogan: "Ride more" },
    };
    expect(profilePrefill("campaignName", campaign)).toBe("Spring sale");
    expect(profilePrefill("goal", campaign)).toBe("Sell 200 bikes");
    expect(profilePrefill("startDate", campaign)).toBe("2026-04-01");
    const service = { ...base, type: "SERVICE", fields: { benefits: ["Fast"], terms: "24h notice" } };
    expect(profilePrefill("benefits", service)).toEqual(["Fast"]);
    expect(profilePrefill("terms", service)).toBe("24h notice");
  });

  it("leaves the business profile to the definitions' own references", () => {
    expect(profilePrefill("name", { ...base, type: "PROJECT" })).toBeUndefined();
    expect(profilePrefill("name", base)).toBeUndefined();
    expect(profilePrefill("name", null)).toBeUndefined();
  });
});
