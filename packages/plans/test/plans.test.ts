import { describe, expect, it } from "@jest/globals";
import { LIMITS, limitScenario, PLAN_CARDS, planOfKey, suggestedTier, usagePeriod } from "../src/index";

describe("plans", () => {
  it("has the spec's prices, keys and about 17% yearly savings", () => {
    expect(PLAN_CARDS.map((c) => [c.planKey.monthly, c.monthlyPrice, c.planKey.yearly, c.yearlyPrice])).toEqual([
      ["CoreMonthly_v1", 29, "CoreYearly_v1", 24.17],
      ["ProMonthly", 59, "ProYearly", 49.17],
    ]);
    expect(PLAN_CARDS.map((c) => c.yearlySavings)).toEqual([17, 17]);
    expect(planOfKey("ProYearly")).toEqual({ tier: "pro", billing: "yearly" });
    expect(planOfKey("CoreMonthly_v1")).toEqual({ tier: "core", billing: "monthly" });
  });

  it("has the spec's Core and Pro limits", () => {
    expect(LIMITS.core).toEqual({ profiles: 1000, emails: 4000, ai_images: 200, voice_minutes: 20 });
    expect(LIMITS.pro).toEqual({ profiles: 5000, emails: 20000, ai_images: 400, voice_minutes: 60 });
  });

  it("writes every figure of the cards grouped the same way, from LIMITS", () => {
    const figures = PLAN_CARDS.flatMap((card) => card.features.flatMap((feature) => feature.match(/\d[\d,]*/g) ?? []));
    expect(figures.filter((figure) => /\d{4}/.test(figure))).toEqual([]);
    expect(PLAN_CARDS[0]!.features).toContain("Up to 1,000 customer profiles");
    expect(PLAN_CARDS[0]!.features).toContain("4,000 emails a month");
    expect(PLAN_CARDS[1]!.features).toContain("Up to 5,000 customer profiles");
    expect(PLAN_CARDS[1]!.features).toContain("20,000 emails a month");
  });

  it("maps a reached limit to the spec's upgrade scenario and suggested plan", () => {
    expect(limitScenario("free", "emails")).toBe("FREE_USER_LIMIT");
    expect(suggestedTier("FREE_USER_LIMIT")).toBe("core");
    expect(limitScenario("core", "profiles")).toBe("CORE_CONTACTS_LIMIT");
    expect(limitScenario("core", "emails")).toBe("CORE_EMAILS_LIMIT");
    expect(limitScenario("core", "ai_images")).toBe("CORE_AI_IMAGES_LIMIT");
    expect(suggestedTier("CORE_AI_IMAGES_LIMIT")).toBe("pro");
    expect(limitScenario("pro", "ai_images")).toBe("PLAN_LIMIT_REACHED");
    expect(suggestedTier("PLAN_LIMIT_REACHED")).toBeNull();
  });

  it("states each card's limits from LIMITS, every number written the same way", () => {
    const [core, pro] = PLAN_CARDS;
    expect(core!.features).toEqual(
      expect.arrayContaining(["Up to 1,000 customer profiles", "4,000 emails a month", "200 AI images a month"]),
    );
    expect(pro!.features).toEqual(
      expect.arrayContaining([
        "Up to 5,000 customer profiles",
        "20,000 emails a month",
        "60 minutes of AI voice a month",
      ]),
    );
    // No bare number of four or more digits ("1000" beside "5,000").
    for (const feature of [...core!.features, ...pro!.features]) expect(feature).not.toMatch(/\d{4}/);
  });

  it("counts months in UTC", () => {
    expect(usagePeriod(new Date("2026-11-30T23:59:59Z"))).toBe("2026-11");
    expect(usagePeriod(new Date("2026-12-01T00:00:00Z"))).toBe("2026-12");
  });
});
