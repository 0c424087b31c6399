import { dayIn } from "@crafter/time";
import { describe, expect, it } from "@jest/globals";
import {
  dateOccurrence,
  jobIdOf,
  monthDaysFor,
  nextStep,
  planOf,
  runIdOf,
  segmentOccurrence,
  segmentTransition,
  sendsEmail,
  stepKey,
  triggerMatches,
  waitDelayMs,
} from "../src/domain/automation-engine";
import { allSteps, parseDefinition, parseDuration, type Step, stepSchema } from "../src/domain/automation-model";
import { AUTOMATION_TEMPLATES } from "../src/domain/automation-templates";

const steps: Step[] = [
  { id: "a", kind: "send_email", subject: "Hi", html: "<p>Hi</p>" },
  {
    id: "c",
    kind: "condition",
    query: { field: "tags", operator: "contains", value: "vip" },
    yes: [
      { id: "y1", kind: "add_tag", tag: "gold" },
      { id: "y2", kind: "wait", duration: "P1D" },
    ],
    no: [],
  },
  { id: "z", kind: "notify_owner", title: "Done" },
];

describe("step transitions", () => {
  const plan = planOf(steps);

  it("starts at the first step and follows the list", () => {
    expect(plan.first).toBe("a");
    expect(nextStep(plan, "a")).toBe("c");
    expect(nextStep(plan, "z")).toBeNull();
  });

  it("enters a condition's branch and joins after it", () => {
    expect(nextStep(plan, "c", "yes")).toBe("y1");
    expect(nextStep(plan, "y1")).toBe("y2");
    expect(nextStep(plan, "y2")).toBe("z");
    // An empty branch goes straight to the step after the condition.
    expect(nextStep(plan, "c", "no")).toBe("z");
  });

  it("ends a run at a step that was removed by an edit", () => {
    expect(nextStep(plan, "gone")).toBeNull();
  });

  it("has no first step when there are no steps", () => {
    expect(planOf([]).first).toBeNull();
  });
});

describe("emails sent", () => {
  it("finds a send_email step anywhere in the tree, a condition's branches included", () => {
    expect(sendsEmail(steps)).toBe(true);
    const nested: Step[] = [
      {
        id: "c",
        kind: "condition",
        query: { field: "tags", operator: "contains", value: "vip" },
        yes: [],
        no: [{ id: "n1", kind: "send_email", subject: "Hi", html: "<p>Hi</p>" }],
      },
    ];
    expect(sendsEmail(nested)).toBe(true);
    expect(sendsEmail(steps.slice(1))).toBe(false);
    expect(sendsEmail([])).toBe(false);
  });
});

describe("triggers", () => {
  it("matches the event kind, a tag case-insensitively, and a campaign when one is named", () => {
    expect(triggerMatches({ kind: "lead_captured" }, { kind: "lead_captured" })).toBe(true);
    expect(triggerMatches({ kind: "lead_captured" }, { kind: "contact_created" })).toBe(false);
    expect(triggerMatches({ kind: "tag_added", tag: "VIP" }, { kind: "tag_added", tags: ["new", "vip"] })).toBe(true);
    expect(triggerMatches({ kind: "tag_added", tag: "vip" }, { kind: "tag_added", tags: ["new"] })).toBe(false);
    const opened = { kind: "email_opened" as const, campaignId: "c1", automationId: "" };
    expect(triggerMatches({ kind: "email_opened" }, opened)).toBe(true);
    expect(triggerMatches({ kind: "email_opened", campaignId: "c2" }, opened)).toBe(false);
    expect(
      triggerMatches({ kind: "segment_entered", segmentId: "s1" }, { kind: "segment_entered", segmentIds: ["s1"] }),
    ).toBe(true);
  });
});

describe("waits", () => {
  const now = new Date("2026-01-01T00:00:00Z");

  it("parses ISO 8601 durations and refuses the rest", () => {
    expect(parseDuration("PT1H")).toBe(3_600_000);
    expect(parseDuration("P1DT12H")).toBe(36 * 3_600_000);
    expect(parseDuration("P1W")).toBe(7 * 24 * 3_600_000);
    expect(parseDuration("PT30S")).toBe(30_000);
    for (const bad of ["P", "PT", "1H", "P1Y", "P400D", "PT0S", "P1M", "tomorrow"])
      expect(parseDuration(bad)).toBeUndefined();
  });

  it("scales durations (tests shorten them) but never a fixed time", () => {
    expect(waitDelayMs({ id: "w", kind: "wait", duration: "P1D" }, now, "UTC", 0.001)).toBe(86_400);
    expect(waitDelayMs({ id: "w", kind: "wait", until: "2026-01-01T01:00:00Z" }, now, "UTC", 0.001)).toBe(3_600_000);
    expect(waitDelayMs({ id: "w", kind: "wait", until: "2025-01-01T00:00:00Z" }, now, "UTC")).toBe(0);
  });

  it("waits until a time of day on the business's wall clock, across daylight-saving changes", () => {
    const nine = { id: "w", kind: "wait" as const, at: "09:00" };
    // Saturday 28 March 2026, 10:00 in London (GMT): Sunday 09:00 is BST, 22 hours later, not 23.
    expect(waitDelayMs(nine, new Date("2026-03-28T10:00:00Z"), "Europe/London", 0.001)).toBe(22 * 3_600_000);
    // Saturday 7 March 2026, 12:00 in Los Angeles (PST): Sunday 09:00 is PDT, 20 hours later.
    expect(waitDelayMs(nine, new Date("2026-03-07T20:00:00Z"), "America/Los_Angeles")).toBe(20 * 3_600_000);
    // The same wait in a UTC business: 09:00 UTC.
    expect(waitDelayMs(nine, new Date("2026-03-28T10:00:00Z"), "UTC")).toBe(23 * 3_600_000);
  });

  it("refuses a wait with no time, two times, or a time of day that is not HH:mm", () => {
    const bad = [
      { id: "w", kind: "wait" },
      { id: "w", kind: "wait", duration: "P1D", at: "09:00" },
      { id: "w", kind: "wait", at: "9am" },
      { id: "w", kind: "wait", at: "24:00" },
    ];
    for (const step of bad) expect(stepSchema.safeParse(step).success).toBe(false);
    expect(stepSchema.safeParse({ id: "w", kind: "wait", at: "09:00" }).success).toBe(true);
  });
});

describe("idempotency keys", () => {
  it("gives one run per automation, contact and occurrence", () => {
    expect(runIdOf("a1", "c1", "e1")).toBe(runIdOf("a1", "c1", "e1"));
    expect(runIdOf("a1", "c1", "e1")).not.toBe(runIdOf("a1", "c1", "e2"));
    expect(runIdOf("a1", "c1", "e1")).not.toBe(runIdOf("a2", "c1", "e1"));
    // Parts cannot run together into the same key.
    expect(runIdOf("a1", "c1e", "1")).not.toBe(runIdOf("a1", "c1", "e1"));
  });

  it("keys a step per run, with a job id BullMQ accepts", () => {
    const run = runIdOf("a", "c", "e");
    expect(stepKey(run, "s1")).toBe(`${run}:s1`);
    expect(jobIdOf(run, "s1")).not.toContain(":");
    expect(jobIdOf(run, "s1")).not.toBe(jobIdOf(run, "s2"));
  });
});

describe("definitions", () => {
  it("accepts every template", () => {
    for (const t of AUTOMATION_TEMPLATES) {
      const parsed = parseDefinition(JSON.stringify(t.trigger), JSON.stringify(t.steps));
      expect(parsed).toMatchObject({ ok: true });
    }
  });

  it("names the problem of an invalid trigger or step", () => {
    expect(parseDefinition("{", "[]")).toEqual({ ok: false, fields: { trigger: "trigger is not valid JSON" } });
    expect(parseDefinition('{"kind":"tag_added"}', "[]")).toEqual({
      ok: false,
      fields: { trigger: "trigger.tag: Choose a tag" },
    });
    const twoIds = JSON.stringify([
      { id: "x", kind: "add_tag", tag: "a" },
      { id: "x", kind: "add_tag", tag: "b" },
    ]);
    expect(parseDefinition('{"kind":"lead_captured"}', twoIds)).toEqual({
      ok: false,
      fields: { steps: "Two steps have the id x" },
    });
    const badWait = JSON.stringify([{ id: "w", kind: "wait", duration: "soon" }]);
    expect(parseDefinition('{"kind":"lead_captured"}', badWait)).toMatchObject({ ok: false });
    const badOp = JSON.stringify([
      { id: "c", kind: "condition", query: { field: "tags", operator: "like", value: "x" }, yes: [], no: [] },
    ]);
    expect(parseDefinition('{"kind":"lead_captured"}', badOp)).toMatchObject({ ok: false });
    const noBody = JSON.stringify([{ id: "e", kind: "send_email", subject: "Hi" }]);
    expect(parseDefinition('{"kind":"lead_captured"}', noBody)).toMatchObject({ ok: false });
  });

  it("takes a publish_social_post step from a craft to named channels, or to the chosen ones", () => {
    const publish = (step: Record<string, unknown>) =>
      parseDefinition(
        '{"kind":"contact_created"}',
        JSON.stringify([{ id: "p", kind: "publish_social_post", ...step }]),
      );
    expect(publish({ craftId: "c-1", channelIds: ["facebook_page:101", "instagram:178"] })).toEqual({
      ok: true,
      trigger: { kind: "contact_created" },
      steps: [
        { id: "p", kind: "publish_social_post", craftId: "c-1", channelIds: ["facebook_page:101", "instagram:178"] },
      ],
    });
    // No channels named: the project's chosen channels when it runs.
    expect(publish({ craftId: "c-1" })).toMatchObject({ ok: true, steps: [{ channelIds: [] }] });
    expect(publish({ channelIds: [] })).toMatchObject({
      ok: false,
      fields: { steps: expect.stringContaining("craftId") },
    });
    expect(publish({ craftId: "c-1", channelIds: ["linkedin:1"] })).toEqual({
      ok: false,
      fields: { steps: "steps.0.channelIds.0: A channel id is <kind>:<id> (facebook_page, instagram, tiktok)" },
    });
    expect(publish({ craftId: "c-1", channelIds: ["instagram:1", "instagram:1"] })).toMatchObject({
      ok: false,
      fields: { steps: expect.stringContaining("A channel is named once") },
    });
    const many = Array.from({ length: 11 }, (_, i) => `facebook_page:${i}`);
    expect(publish({ craftId: "c-1", channelIds: many })).toMatchObject({ ok: false });
  });

  it("finds a publish step inside a condition's branch (its post is filled on save)", () => {
    const tree: Step[] = [
      {
        id: "c",
        kind: "condition",
        query: { field: "tags", operator: "contains", value: "vip" },
        yes: [{ id: "p", kind: "publish_social_post", craftId: "c-1", channelIds: [] }],
        no: [{ id: "t", kind: "add_tag", tag: "x" }],
      },
      { id: "n", kind: "notify_owner", title: "Done" },
    ];
    expect(allSteps(tree).map((step) => step.id)).toEqual(["c", "p", "t", "n"]);
    expect(nextStep(planOf(tree), "p")).toBe("n");
  });

  it("keys a publish step's post by the run's step, so a retried step names the same post", () => {
    const run = runIdOf("auto-1", "contact-1", "event-1");
    expect(jobIdOf(run, "p")).toBe(jobIdOf(runIdOf("auto-1", "contact-1", "event-1"), "p"));
    expect(jobIdOf(run, "p")).not.toBe(jobIdOf(runIdOf("auto-1", "contact-1", "event-2"), "p"));
    // It names BullMQ jobs too, which refuse ':'.
    expect(jobIdOf(run, "p")).not.toContain(":");
  });

  it("takes the 11 operators in conditions", () => {
    for (const operator of ["==", "!=", ">", "<", ">=", "<=", "hasValue", "in", "not in", "contains", "notContains"]) {
      const s = JSON.stringify([
        { id: "c", kind: "condition", query: { combinator: "and", rules: [{ field: "x", operator, value: 1 }] } },
      ]);
      expect(parseDefinition('{"kind":"contact_created"}', s)).toMatchObject({ ok: true });
    }
  });
});

describe("segment entries", () => {
  it("enters once, stays quiet while inside, leaves, and enters again with a new occurrence", () => {
    expect(segmentTransition(null, true, "e1")).toEqual({ write: { seq: 1, inside: true }, start: 1 });
    expect(segmentTransition(null, false, "e1")).toEqual({});
    const inside = { seq: 1, inside: true, eventId: "e1" };
    // Another event while still matching: nothing.
    expect(segmentTransition(inside, true, "e2")).toEqual({});
    // The event that wrote the entry, redelivered (a crash before its runs started): start them again.
    expect(segmentTransition(inside, true, "e1")).toEqual({ start: 1 });
    expect(segmentTransition(inside, false, "e3")).toEqual({ write: { seq: 2, inside: false } });
    const left = { seq: 2, inside: false, eventId: "e3" };
    expect(segmentTransition(left, false, "e4")).toEqual({});
    expect(segmentTransition(left, true, "e5")).toEqual({ write: { seq: 3, inside: true }, start: 3 });
    expect(segmentOccurrence("s1", 3)).not.toBe(segmentOccurrence("s1", 1));
  });

  it("matches segment_entered by segment id", () => {
    const trigger = { kind: "segment_entered" as const, segmentId: "s1" };
    expect(triggerMatches(trigger, { kind: "segment_entered", segmentIds: ["s1"] })).toBe(true);
    expect(triggerMatches(trigger, { kind: "segment_entered", segmentIds: ["s2"] })).toBe(false);
  });
});

describe("date fields", () => {
  it("gives the local day's month-day, shifted by the offset, with 29 February on the 28th of other years", () => {
    expect(monthDaysFor("2026-11-23", 0)).toEqual(["11-23"]);
    // Three days before the date: on 20 November, the dates of 23 November.
    expect(monthDaysFor("2026-11-20", -3)).toEqual(["11-23"]);
    expect(monthDaysFor("2026-01-02", 2)).toEqual(["12-31"]);
    expect(monthDaysFor("2027-02-28", 0)).toEqual(["02-28", "02-29"]);
    expect(monthDaysFor("2028-02-28", 0)).toEqual(["02-28"]);
    expect(monthDaysFor("2028-02-29", 0)).toEqual(["02-29"]);
  });

  it("runs once per contact and local day: a Los Angeles birthday is the local day, not the UTC one", () => {
    const la = "America/Los_Angeles";
    // 17:00 PDT on 8 March 2026 is already 9 March in UTC: the birthday of 8 March is still today.
    const evening = dayIn(new Date("2026-03-09T00:00:00Z"), la);
    expect(monthDaysFor(evening, 0)).toEqual(["03-08"]);
    const morning = dateOccurrence("custom.birthday", dayIn(new Date("2026-03-08T09:00:00Z"), la));
    expect(dateOccurrence("custom.birthday", evening)).toBe(morning);
    expect(dateOccurrence("custom.birthday", dayIn(new Date("2026-03-09T08:00:00Z"), la))).not.toBe(morning);
    expect(runIdOf("a", "c", morning)).toBe(runIdOf("a", "c", morning));
  });

  it("matches date_field by field and offset", () => {
    const trigger = { kind: "date_field" as const, field: "custom.birthday" };
    expect(triggerMatches(trigger, { kind: "date_field", field: "custom.birthday", offsetDays: 0 })).toBe(true);
    expect(triggerMatches(trigger, { kind: "date_field", field: "customerSince", offsetDays: 0 })).toBe(false);
    expect(
      triggerMatches({ ...trigger, offsetDays: -3 }, { kind: "date_field", field: "custom.birthday", offsetDays: 0 }),
    ).toBe(false);
  });
});
