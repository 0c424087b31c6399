import { describe, expect, it } from "@jest/globals";
import type { Craft, CraftStep } from "../../api/types";
import { parsePersisted } from "./context";
import { writeBackOf } from "./write-back";

const stepOf = (name: string, values: Record<string, unknown>, sections?: Record<string, string[]>): CraftStep => ({
  name,
  kind: "FormStep",
  state: "Completed",
  status: "completed",
  values,
  results: sections ? [{ id: `${name}-r1`, content: "", sections }] : [],
});

const craftOf = (workflowName: string, steps: CraftStep[]): Craft => ({
  craftId: "c1",
  craftName: "x",
  workflowName,
  projectId: "p1",
  state: "Completed",
  createdAt: "",
  updatedAt: "",
  version: 1,
  profileId: "pr1",
  currentStep: null,
  steps,
});

describe("write-backs to profiles", () => {
  it("maps a ProductSetup's inputs and SEO results to the product's fields", () => {
    const back = writeBackOf(
      craftOf("ProductSetup", [
        stepOf("details", { name: "Trail Bike", description: "Light", features: ["Disc brakes"], shipping: "Free" }),
        stepOf("summary", { keywords: ["bike"] }, { seoDescription: ["A light bike."], slug: ["trail-bike"] }),
      ]),
    );
    expect(back?.type).toBe("PRODUCT");
    expect(back?.values).toEqual({
      name: "Trail Bike",
      description: "Light",
      featureList: ["Disc brakes"],
      shippingAndReturnsPolicy: "Free",
      keywords: ["bike"],
      seoSummary: "A light bike.",
      pageSlug: "trail-bike",
    });
    expect(back?.sections.profileReference).toEqual({ profileReferenceId: "c1", profileReferenceType: "ProductSetup" });
    expect(back?.sections.inputBindingValues).toMatchObject({ name: "Trail Bike", keywords: ["bike"] });
  });

  it("maps a BusinessSetup's profile results to the business and a Campaign brief to the campaign", () => {
    const business = writeBackOf(
      craftOf("BusinessSetup", [
        stepOf("start", { businessName: "Spokes" }),
        stepOf("profile", {}, { description: ["We fix bikes."], keywords: ["bike repair", "wheels"] }),
      ]),
    );
    expect(business).toMatchObject({
      type: "PROJECT",
      values: { name: "Spokes", description: "We fix bikes.", keywords: ["bike repair", "wheels"] },
    });
    const campaign = writeBackOf(
      craftOf("Campaign", [
        stepOf(
          "brief",
          { campaignName: "Spring", goal: "80 bookings", startDate: "2026-03-01", endDate: "2026-04-01" },
          { slogans: ["Ride into spring"] },
        ),
      ]),
    );
    expect(campaign?.values).toEqual({
      name: "Spring",
      objective: "80 bookings",
      startDate: "2026-03-01",
      endDate: "2026-04-01",
      slogan: "Ride into spring",
    });
  });

  it("writes nothing for other workflows or an empty craft", () => {
    expect(writeBackOf(craftOf("BlogWriter", [stepOf("topic", { topic: "x" })]))).toBeNull();
    expect(writeBackOf(craftOf("ServiceSetup", [stepOf("details", {})]))).toBeNull();
  });
});

describe("the persisted profile slice", () => {
  it("reads only version 4 of the webapp key", () => {
    const active = { projectId: "p1", profileId: "pr1", profileType: "PRODUCT" };
    expect(parsePersisted(JSON.stringify({ version: 4, profile: { activeProfile: active } }))).toEqual(active);
    expect(parsePersisted(JSON.stringify({ version: 3, profile: { activeProfile: active } }))).toBeNull();
    expect(parsePersisted("not json")).toBeNull();
    expect(parsePersisted(null)).toBeNull();
  });
});
