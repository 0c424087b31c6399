import { describe, expect, it } from "@jest/globals";
import {
  assertCanComplete,
  CraftRuleError,
  completeStep,
  editStep,
  markInProgress,
  saveStepValues,
  startCraft,
} from "../src/domain/craft";
import type { CraftProgress, ResultRecord } from "../src/domain/types";
import { blogWriter, profile } from "./fixtures";

const now = new Date("2025-01-01T10:00:00Z");

function planResult(titles: string[], outline: string[]): ResultRecord {
  return {
    id: `r-${titles[0]}`,
    content: "…",
    format: "list",
    sections: { titles, outline },
    engine: "offline",
    framework: "AIDA",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
  };
}

const draftResult: ResultRecord = {
  id: "r-draft",
  content: "<h1>Draft</h1>",
  format: "html",
  engine: "offline",
  framework: "PAS",
  usage: { inputTokens: 0, outputTokens: 0 },
  createdAt: now,
};

const states = (progress: CraftProgress) => progress.steps.map((step) => step.state);

function ruleCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CraftRuleError);
    return (error as CraftRuleError).code;
  }
  throw new Error("no rule was broken");
}

describe("the craft step state machine", () => {
  const started = startCraft(blogWriter, profile, now);
  const topicValues = {
    topic: "Keeping a starter alive",
    keywords: ["sourdough starter"],
    audience: "home bakers",
    tone: "friendly",
  };
  const afterTopic = completeStep(
    blogWriter,
    started,
    "topic",
    topicValues,
    [planResult(["Starter 101", "Wild Yeast Basics"], ["Why it matters", "Feeding", "Storing"])],
    profile,
    now,
  );

  it("starts with the first step open and prefilled from the profile", () => {
    expect(started.state).toBe("NotStarted");
    expect(started.currentStep).toBe("topic");
    expect(states(started)).toEqual(["NotStarted", "NotInitialized", "NotInitialized"]);
    expect(started.steps[0]!.values).toEqual({
      keywords: ["sourdough starter", "wild yeast"],
      audience: "home bakers",
      tone: "friendly",
    });
    expect(started.steps[0]!.defaults).toEqual(started.steps[0]!.values);
  });

  it("saving values makes the step and the craft InProgress", () => {
    const saved = saveStepValues(blogWriter, started, "topic", { topic: "Bread" });
    expect(saved.state).toBe("InProgress");
    expect(saved.steps[0]!.state).toBe("InProgress");
    expect(saved.steps[0]!.values.topic).toBe("Bread");
    expect(saved.steps[0]!.values.tone).toBe("friendly");
  });

  it("refuses to complete or save a step before the earlier ones are completed", () => {
    expect(ruleCode(() => assertCanComplete(blogWriter, started, "outline"))).toBe("CONFLICT");
    expect(ruleCode(() => saveStepValues(blogWriter, started, "outline", {}))).toBe("CONFLICT");
    expect(ruleCode(() => assertCanComplete(blogWriter, started, "nope"))).toBe("CR_ERR_BAD_REQUEST");
  });

  it("marks the step InProgress while its action runs", () => {
    const marked = markInProgress(blogWriter, started, "topic");
    expect(marked.steps[0]!.state).toBe("InProgress");
    expect(marked.state).toBe("InProgress");
  });

  it("completing a step opens the next one InProgress, prefilled from the result", () => {
    expect(afterTopic.craftCompleted).toBe(false);
    const progress = afterTopic.progress;
    expect(progress.state).toBe("InProgress");
    expect(progress.currentStep).toBe("outline");
    expect(states(progress)).toEqual(["Completed", "InProgress", "NotInitialized"]);
    expect(progress.steps[0]!.results).toHaveLength(1);
    expect(progress.steps[1]!.values).toEqual({
      title: "Starter 101",
      outline: ["Why it matters", "Feeding", "Storing"],
      length: "medium",
    });
  });

  it("completing the last step with an action completes the view step and the craft", () => {
    const outlineValues = { ...afterTopic.progress.steps[1]!.values };
    const done = completeStep(blogWriter, afterTopic.progress, "outline", outlineValues, [draftResult], profile, now);
    expect(done.craftCompleted).toBe(true);
    expect(done.progress.state).toBe("Completed");
    expect(states(done.progress)).toEqual(["Completed", "Completed", "Completed"]);
    expect(done.progress.currentStep).toBe("draft");
    expect(ruleCode(() => assertCanComplete(blogWriter, done.progress, "draft"))).toBe("CR_ERR_BAD_REQUEST");
  });

  it("editing an earlier step reopens it and sets later steps NotStarted, keeping their values", () => {
    const done = completeStep(
      blogWriter,
      afterTopic.progress,
      "outline",
      afterTopic.progress.steps[1]!.values,
      [draftResult],
      profile,
      now,
    ).progress;
    const edited = editStep(blogWriter, done, "topic");
    expect(edited.state).toBe("InProgress");
    expect(edited.currentStep).toBe("topic");
    expect(states(edited)).toEqual(["InProgress", "NotStarted", "NotStarted"]);
    expect(edited.steps[1]!.values).toEqual(done.steps[1]!.values);
    expect(edited.steps[1]!.results).toEqual([draftResult]);
    expect(ruleCode(() => assertCanComplete(blogWriter, edited, "outline"))).toBe("CONFLICT");
    expect(ruleCode(() => editStep(blogWriter, edited, "draft"))).toBe("CONFLICT");
  });

  it("re-completing an earlier step refreshes untouched prefills and keeps the user's edits", () => {
    const userEdited = saveStepValues(blogWriter, afterTopic.progress, "outline", { title: "My own title" });
    const edited = editStep(blogWriter, userEdited, "topic");
    const again = completeStep(
      blogWriter,
      edited,
      "topic",
      topicValues,
      [planResult(["New idea"], ["One", "Two"])],
      profile,
      now,
    ).progress;
    expect(again.steps[1]!.state).toBe("InProgress");
    expect(again.steps[1]!.values.title).toBe("My own title");
    expect(again.steps[1]!.values.outline).toEqual(["One", "Two"]);
    expect(again.steps[1]!.defaults.title).toBe("New idea");
  });

  it("ReplaceResults keeps only the newest result", () => {
    const edited = editStep(blogWriter, afterTopic.progress, "topic");
    const again = completeStep(blogWriter, edited, "topic", topicValues, [planResult(["B"], ["x", "y"])], profile, now);
    expect(again.progress.steps[0]!.results.map((result) => result.id)).toEqual(["r-B"]);
  });

  it("AppendResults stops at maxResults with ReachedMaxResults", () => {
    const appending = structuredClone(blogWriter);
    appending.steps[0]!.action = { ...appending.steps[0]!.action!, resultMode: "AppendResults", maxResults: 2 };
    let progress = startCraft(appending, profile, now);
    for (const title of ["A", "B"]) {
      progress = completeStep(
        appending,
        progress,
        "topic",
        topicValues,
        [planResult([title], ["x", "y"])],
        profile,
        now,
      ).progress;
      progress = editStep(appending, progress, "topic");
    }
    expect(progress.steps[0]!.results.map((result) => result.id)).toEqual(["r-A", "r-B"]);
    expect(ruleCode(() => assertCanComplete(appending, progress, "topic"))).toBe("ReachedMaxResults");
  });

  it("a craft without a profile starts with only literal defaults", () => {
    const bare = startCraft(blogWriter, null, now);
    expect(bare.steps[0]!.values).toEqual({ tone: "friendly" });
  });
});
