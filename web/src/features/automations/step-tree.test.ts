import { describe, expect, it } from "@jest/globals";
import {
  addStep,
  dateFieldOptions,
  describeStep,
  durationParts,
  emailStepFromDraft,
  isoDuration,
  moveStep,
  newStep,
  offsetLabel,
  removeStep,
  replaceStep,
  sendsEmail,
  stepIds,
} from "./step-tree";
import type { Step } from "./types";

const tree: Step[] = [
  { id: "a", kind: "add_tag", tag: "x" },
  {
    id: "c",
    kind: "condition",
    query: { combinator: "and", rules: [] },
    yes: [{ id: "y", kind: "wait", duration: "P1D" }],
    no: [],
  },
];

describe("the step tree", () => {
  it("adds to the top list and to a branch with ids unique in the whole tree", () => {
    const withWait = addStep(tree, { parentId: "c", branch: "no" }, newStep("wait", tree));
    expect(stepIds(withWait)).toEqual(["a", "c", "y", "wait-1"]);
    const more = addStep(withWait, { parentId: null }, newStep("wait", withWait));
    expect(stepIds(more)).toEqual(["a", "c", "y", "wait-1", "wait-2"]);
  });

  it("replaces, removes and moves steps inside branches", () => {
    expect(stepIds(removeStep(tree, "y"))).toEqual(["a", "c"]);
    expect(stepIds(removeStep(tree, "c"))).toEqual(["a"]);
    expect(stepIds(moveStep(tree, "c", -1))).toEqual(["c", "y", "a"]);
    expect(moveStep(tree, "a", -1)).toBe(tree);
    const edited = replaceStep(tree, { id: "y", kind: "wait", duration: "PT2H" });
    expect(describeStep((edited[1] as Extract<Step, { kind: "condition" }>).yes[0]!)).toBe("Wait 2 hours");
  });

  it("reads and writes durations", () => {
    expect(durationParts("P3D")).toEqual({ amount: 3, unit: "days" });
    expect(durationParts("PT1H")).toEqual({ amount: 1, unit: "hours" });
    expect(durationParts("P1DT2H")).toBeNull();
    expect(isoDuration(2, "weeks")).toBe("P2W");
    expect(isoDuration(0, "minutes")).toBe("PT1M");
  });
});

describe("date field triggers", () => {
  it("offer Customer since and the custom date fields only", () => {
    expect(
      dateFieldOptions([
        { key: "birthday", label: "Birthday", type: "date" },
        { key: "plan", label: "Plan", type: "select" },
      ]),
    ).toEqual([
      { value: "customerSince", label: "Customer since (anniversary)" },
      { value: "custom.birthday", label: "Birthday" },
    ]);
  });

  it("say when they run", () => {
    expect(offsetLabel(undefined)).toBe("On the day");
    expect(offsetLabel(-3)).toBe("3 days before");
    expect(offsetLabel(1)).toBe("1 day after");
  });
});

describe("sendsEmail", () => {
  it("finds an email step anywhere in the tree, and none in a tree without one", () => {
    const email: Step = { id: "e", kind: "send_email", subject: "Hi", html: "<p>Hi</p>" };
    expect(sendsEmail(tree)).toBe(false);
    expect(sendsEmail([{ id: "a", kind: "add_tag", tag: "x" }])).toBe(false);
    expect(sendsEmail([])).toBe(false);
    expect(sendsEmail([{ id: "a", kind: "add_tag", tag: "x" }, email])).toBe(true);
    const nested: Step = {
      id: "c",
      kind: "condition",
      query: { combinator: "and", rules: [] },
      yes: [],
      no: [email],
    };
    expect(sendsEmail([nested])).toBe(true);
    expect(sendsEmail([{ ...nested, no: [] }])).toBe(false);
  });
});

describe("emailStepFromDraft", () => {
  it("fills a send-email step from an email craft's draft", () => {
    const draft =
      '<p><strong>Subject:</strong> Spring tune-ups are back</p><p><em>Preheader:</em> Book a slot this week</p><hr><p>Hi {{contact.firstName | "there"}},</p><p>Bring your bike in.</p>';
    const step = emailStepFromDraft(draft, [
      { id: "send-email-1", kind: "send_email", subject: "x", html: "<p>x</p>" },
    ]);
    expect(step).toEqual({
      id: "send-email-2",
      kind: "send_email",
      subject: "Spring tune-ups are back",
      preheader: "Book a slot this week",
      html: '<p>Hi {{contact.firstName | "there"}},</p><p>Bring your bike in.</p>',
    });
  });

  it("answers null without a draft", () => {
    expect(emailStepFromDraft(null, [])).toBeNull();
    expect(emailStepFromDraft("<p><strong>Subject:</strong> Only a subject</p><hr>", [])).toBeNull();
  });
});

describe("a publish-a-social-post step", () => {
  it("starts without a craft, to the chosen channels, and reads as the post it publishes", () => {
    const step = newStep("publish_social_post", []);
    expect(step).toEqual({ id: "publish-social-post-1", kind: "publish_social_post", craftId: "", channelIds: [] });
    expect(describeStep(step)).toBe("Publish “a social post”");
    expect(
      describeStep({
        id: "p",
        kind: "publish_social_post",
        craftId: "c",
        channelIds: ["facebook_page:1", "instagram:2"],
        post: { title: "Spring tune-ups", text: "Book now", imageAssetId: "" },
      }),
    ).toBe("Publish “Spring tune-ups” to 2 channels");
  });
});
