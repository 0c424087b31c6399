import { describe, expect, it } from "@jest/globals";
import {
  addResults,
  assertCanComplete,
  assertCanRun,
  CraftRuleError,
  completeStep,
  editStep,
  inlineTarget,
  startCraft,
} from "../src/domain/craft";
import type { CraftProgress, ResultRecord } from "../src/domain/types";
import { craftView } from "../src/domain/view";
import { engineCheck, profile, registry } from "./fixtures";

const now = new Date("2026-01-01T10:00:00Z");
const def = engineCheck;

function plan(id: string, outline: string[]): ResultRecord {
  return {
    id,
    content: "…",
    format: "list",
    sections: { titles: ["A title"], outline },
    engine: "offline",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
  };
}

function html(id: string, itemIndex?: number, item?: string): ResultRecord {
  return {
    id,
    content: `<p>${id}</p>`,
    format: "html",
    engine: "offline",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
    ...(itemIndex !== undefined ? { itemIndex, item: item! } : {}),
  };
}

const step = (progress: CraftProgress, name: string) => progress.steps.find((record) => record.name === name)!;
const view = (progress: CraftProgress) =>
  craftView(def, {
    ...progress,
    id: "c1",
    userId: "u1",
    projectId: "",
    profileId: "",
    workflowName: def.name,
    workflowVersion: def.version,
    craftName: "x",
    profile,
    usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
    createdAt: now,
    updatedAt: now,
  });

function ruleCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CraftRuleError);
    return (error as CraftRuleError).code;
  }
  throw new Error("no rule was broken");
}

describe("engine steps: skip conditions, iterators, media steps, editing back", () => {
  const started = startCraft(def, profile, now);
  const blog = completeStep(
    def,
    started,
    "brief",
    { topic: "Bread", channel: "blog" },
    [plan("p1", ["Why", "How", "When", "Where"])],
    profile,
    now,
  ).progress;

  it("is never listed in the headers, only with the test fixtures", () => {
    expect(registry.headers().names).not.toContain("EngineCheck");
    expect(def.steps.map((s) => s.kind)).toContain("IteratorStep");
  });

  it("opens the step after a skipWhen that does not hold", () => {
    expect(step(blog, "extra")).toMatchObject({ state: "InProgress" });
    expect(step(blog, "extra").skipped).toBeUndefined();
    expect(blog.currentStep).toBe("extra");
  });

  it("skips a step whose skipWhen holds: Completed, status skipped, the next step opens", () => {
    const email = completeStep(
      def,
      started,
      "brief",
      { topic: "Bread", channel: "email", subject: "Hi" },
      [plan("p1", ["Why", "How"])],
      profile,
      now,
    ).progress;
    expect(step(email, "extra")).toMatchObject({ state: "Completed", skipped: true });
    expect(email.currentStep).toBe("sections");
    const extraView = view(email).steps.find((s) => s.name === "extra")!;
    expect(extraView.status).toBe("skipped");
    expect(ruleCode(() => assertCanComplete(def, email, "extra"))).toBe("CR_ERR_BAD_REQUEST");
  });

  it("gives an IteratorStep its items when it opens, at most maxItems", () => {
    const afterExtra = completeStep(def, blog, "extra", {}, [html("intro")], profile, now).progress;
    const sections = step(afterExtra, "sections");
    expect(sections.state).toBe("InProgress");
    expect(sections.items).toEqual(["Why", "How", "When"]);
    const items = view(afterExtra).steps.find((s) => s.name === "sections")!.items;
    expect(items).toEqual([
      { index: 0, item: "Why", state: "NotStarted", resultIds: [] },
      { index: 1, item: "How", state: "NotStarted", resultIds: [] },
      { index: 2, item: "When", state: "NotStarted", resultIds: [] },
    ]);
  });

  it("stores one result per item, completes the media step without running it and opens the editor", () => {
    const afterExtra = completeStep(def, blog, "extra", {}, [html("intro")], profile, now).progress;
    const results = ["Why", "How", "When"].map((item, i) => html(`s${i}`, i, item));
    const done = completeStep(def, afterExtra, "sections", {}, results, profile, now).progress;
    expect(step(done, "sections").results.map((r) => r.itemIndex)).toEqual([0, 1, 2]);
    // A media step never holds up the craft: it completes when it opens, its pictures made on demand.
    expect(step(done, "picture")).toMatchObject({ state: "Completed", results: [] });
    expect(step(done, "picture").skipped).toBeUndefined();
    expect(done.currentStep).toBe("editor");
    const steps = view(done).steps;
    expect(steps.find((s) => s.name === "picture")).toMatchObject({ status: "completed" });
    expect(steps.find((s) => s.name === "picture")!.coming).toBeUndefined();
    expect(steps.find((s) => s.name === "sections")!.items).toEqual([
      { index: 0, item: "Why", state: "Completed", resultIds: ["s0"] },
      { index: 1, item: "How", state: "Completed", resultIds: ["s1"] },
      { index: 2, item: "When", state: "Completed", resultIds: ["s2"] },
    ]);
  });

  it("refuses an IteratorStep with no items", () => {
    const empty = completeStep(
      def,
      started,
      "brief",
      { topic: "Bread", channel: "blog" },
      [plan("p1", [])],
      profile,
      now,
    );
    const opened = completeStep(def, empty.progress, "extra", {}, [html("intro")], profile, now).progress;
    expect(step(opened, "sections").items).toEqual([]);
    expect(ruleCode(() => assertCanComplete(def, opened, "sections"))).toBe("ConflictingInputError");
  });

  it("editing an earlier step reopens it and decides later skips and items again", () => {
    const email = completeStep(
      def,
      started,
      "brief",
      { topic: "Bread", channel: "email", subject: "Hi" },
      [plan("p1", ["Why", "How"])],
      profile,
      now,
    ).progress;
    const edited = editStep(def, email, "brief");
    expect(step(edited, "brief").state).toBe("InProgress");
    expect(step(edited, "extra")).toMatchObject({ state: "NotStarted" });
    expect(step(edited, "extra").skipped).toBeUndefined();
    const back = completeStep(
      def,
      edited,
      "brief",
      { topic: "Bread", channel: "blog" },
      [plan("p2", ["One", "Two"])],
      profile,
      now,
    ).progress;
    expect(step(back, "extra")).toMatchObject({ state: "InProgress" });
    expect(step(back, "brief").results.map((r) => r.id)).toEqual(["p1", "p2"]);
  });

  it("runs an action without completing the step and stops at maxResults (AppendResults)", () => {
    const progress = startCraft(def, profile, now);
    expect(assertCanRun(def, progress, "brief", "TextGenerator").name).toBe("brief");
    expect(ruleCode(() => assertCanRun(def, progress, "brief", "FunctionCaller"))).toBe("CR_ERR_BAD_REQUEST");
    const once = addResults(def, progress, "brief", { topic: "Bread" }, [plan("p1", ["a", "b"])]);
    expect(step(once, "brief")).toMatchObject({ state: "InProgress", values: { topic: "Bread" } });
    expect(once.state).toBe("InProgress");
    const twice = addResults(def, once, "brief", { topic: "Bread" }, [plan("p2", ["a", "b"])]);
    expect(step(twice, "brief").results).toHaveLength(2);
    expect(step(twice, "extra").state).toBe("NotInitialized");
    expect(ruleCode(() => assertCanRun(def, twice, "brief", "TextGenerator"))).toBe("ReachedMaxResults");
    expect(ruleCode(() => assertCanComplete(def, twice, "brief"))).toBe("ReachedMaxResults");
  });

  it("finds inline generators by input or command name, with their credits", () => {
    const afterSections = completeStep(
      def,
      completeStep(def, blog, "extra", {}, [html("intro")], profile, now).progress,
      "sections",
      {},
      [html("s0", 0, "Why")],
      profile,
      now,
    ).progress;
    expect(inlineTarget(def, afterSections, "editor", "body")).toMatchObject({ credits: 1, label: "Body" });
    expect(inlineTarget(def, afterSections, "editor", "shorten")).toMatchObject({ credits: 2, label: "Shorten" });
    expect(ruleCode(() => inlineTarget(def, afterSections, "editor", "expand"))).toBe("CR_ERR_BAD_REQUEST");
    expect(ruleCode(() => inlineTarget(def, started, "editor", "body"))).toBe("CONFLICT");
  });
});
