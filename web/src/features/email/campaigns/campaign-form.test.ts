import { describe, expect, it } from "@jest/globals";
import {
  audienceSummary,
  businessAddressOf,
  campaignFormSchema,
  contactCount,
  craftSubjectLines,
  EMPTY_CAMPAIGN_FORM,
  formatRate,
  fromCampaign,
  LOCAL_TIME_WITH_AB_TEST,
  releaseSummary,
  toCampaignInput,
} from "./campaign-form";

const valid = { ...EMPTY_CAMPAIGN_FORM, name: " Spring ", segmentId: "s1", templateId: "t1", subject: "Hello" };

describe("the campaign composer's form", () => {
  it("sends one content source and no A/B test when it is off", () => {
    expect(toCampaignInput(campaignFormSchema.parse(valid))).toEqual({
      name: "Spring",
      segmentId: "s1",
      templateId: "t1",
      subject: "Hello",
      preheader: "",
      sendTimeBy: "business",
    });
  });

  it("sends the A/B test with its share when on", () => {
    const input = toCampaignInput({
      ...valid,
      source: "craft",
      craftId: "c1",
      abEnabled: true,
      subjectB: "Hi",
      share: 30,
    });
    expect(input).toMatchObject({ craftId: "c1", abTest: { subjectB: "Hi", share: 30, winnerAfterMinutes: 240 } });
    expect(input.templateId).toBeUndefined();
  });

  it("refuses a missing source, a share outside 10–50 and two equal subjects", () => {
    const messages = (v: object) =>
      campaignFormSchema.safeParse(v).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(messages({ ...valid, templateId: "" })).toEqual(["templateId: Choose a template."]);
    expect(messages({ ...valid, abEnabled: true, subjectB: "Hello", share: 60 })).toEqual([
      "share: 10 to 50 percent.",
      "subjectB: The two subjects must differ.",
    ]);
  });

  it("sends at each contact's local time only without an A/B test", () => {
    const messages = (v: object) =>
      campaignFormSchema.safeParse(v).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(toCampaignInput(campaignFormSchema.parse({ ...valid, sendTimeBy: "contact" }))).toMatchObject({
      sendTimeBy: "contact",
    });
    expect(messages({ ...valid, sendTimeBy: "contact", abEnabled: true, subjectB: "Hi" })).toEqual([
      `sendTimeBy: ${LOCAL_TIME_WITH_AB_TEST}`,
    ]);
    expect(messages({ ...valid, sendTimeBy: "somebody" })).toHaveLength(1);
  });

  it("says how far a campaign at each contact's local time has come", () => {
    const time = (iso: string) => iso.slice(5, 16).replace("T", " ");
    const base = { status: "sending" as const, sendTimeBy: "contact" as const };
    expect(releaseSummary({ ...base, sendTimeBy: "business", release: { released: 1, total: 2 } }, time)).toBe("");
    expect(
      releaseSummary({ ...base, status: "scheduled", startsAt: "2026-03-28T19:00:00Z", scheduledAt: "x" }, time),
    ).toBe("Starts 03-28 19:00, when the first time zone reaches it");
    expect(
      releaseSummary({ ...base, release: { released: 1200, total: 4000, nextAt: "2026-03-29T16:00:00Z" } }, time),
    ).toBe("1,200 of 4,000 released, next at 03-29 16:00");
    expect(releaseSummary({ ...base, status: "sent", release: { released: 4, total: 4 } }, time)).toBe(
      "All 4 released",
    );
  });

  it("leaves the subject to the email craft or template when it is empty", () => {
    const parsed = campaignFormSchema.safeParse({ ...valid, source: "craft", craftId: "c1", subject: "" });
    expect(parsed.success).toBe(true);
    expect(toCampaignInput(parsed.data!)).toEqual({
      name: "Spring",
      segmentId: "s1",
      craftId: "c1",
      subject: "",
      preheader: "",
      sendTimeBy: "business",
    });
  });

  it("reads the business profile's postal address, and none when it is blank or missing", () => {
    expect(businessAddressOf({ fields: { address: " 1 Mill Lane, Bristol " } })).toBe("1 Mill Lane, Bristol");
    expect(businessAddressOf({ fields: { address: "  " } })).toBe("");
    expect(businessAddressOf({ fields: {} })).toBe("");
    expect(businessAddressOf(undefined)).toBe("");
  });

  it("reads a stored campaign back into the form", () => {
    const form = fromCampaign({
      id: "x",
      name: "N",
      status: "draft",
      segmentId: "s",
      craftId: "c",
      subject: "S",
      preheader: "P",
      abTest: { subjectB: "B", share: 15, winnerAfterMinutes: 60 },
      stats: {} as never,
      createdAt: "",
      updatedAt: "",
      html: "",
      projectId: "p",
      sendTimeBy: "business",
    });
    expect(form).toMatchObject({ source: "craft", craftId: "c", abEnabled: true, subjectB: "B", share: 15 });
  });

  it("shows rates as percentages, and a dash before anything was sent", () => {
    expect(formatRate(0.4567, 100)).toBe("45.7%");
    expect(formatRate(0, 0)).toBe("—");
    expect(formatRate(1, 3)).toBe("100.0%");
  });
});

describe("audienceSummary", () => {
  it("says how many get it and why the others do not", () => {
    expect(
      audienceSummary({
        members: 1203,
        recipients: 1200,
        excluded: [
          { reason: "pending", count: 2 },
          { reason: "bounced", count: 1 },
        ],
      }),
    ).toEqual({
      headline: "1,200 of the segment's 1,203 contacts get it; 3 do not.",
      excluded: ["2 pending consent (no opt-in yet)", "1 bounced before"],
    });
    expect(audienceSummary({ members: 1, recipients: 1, excluded: [] }).headline).toBe(
      "The segment's one contact gets it.",
    );
    expect(audienceSummary({ members: 0, recipients: 0, excluded: [] }).headline).toMatch(/nobody/);
    expect(contactCount(1)).toBe("1 contact");
    expect(contactCount(2)).toBe("2 contacts");
  });
});

describe("the A/B test's second subject from an email craft", () => {
  it("offers the craft's subject lines, the selected result first, without the subject in use or repeats", () => {
    const steps: { results?: { sections?: Record<string, string[]>; selected?: boolean }[] }[] = [
      {
        results: [
          { sections: { subjects: ["Old line", "Spring tune-ups are back"], preheaders: ["Not a subject"] } },
          {
            selected: true,
            sections: { subjects: ["20% off your first service", "Tired of flat tyres?", "spring tune-ups are back"] },
          },
        ],
      },
      { results: [{ sections: {} }] },
      {},
    ];
    expect(craftSubjectLines(steps, "20% off your first service")).toEqual([
      "Tired of flat tyres?",
      "spring tune-ups are back",
      "Old line",
    ]);
    expect(craftSubjectLines(undefined)).toEqual([]);
  });
});
