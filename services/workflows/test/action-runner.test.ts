import { appError, CancelledError, createLogger, describeError } from "@crafter/kit";
import { loadDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import type { WorkflowsDeps } from "../src/deps";
import { completeStep, startCraft } from "../src/domain/craft";
import type { FunctionRegistry } from "../src/functions/types";
import { createOfflineEngine } from "../src/generation/offline-engine";
import type { StoredCraft } from "../src/store/craft.repository";
import { runStepAction, type StepEvent } from "../src/usecases/action-runner";
import { engineCheck, profile } from "./fixtures";

const now = new Date("2026-01-01T10:00:00Z");

// Keyword research per seed keyword: a FunctionCaller in an IteratorStep over a chip list.
const research = loadDefinition({
  name: "Research",
  version: 1,
  title: "Research",
  description: "Keyword research per seed",
  category: "test",
  steps: [
    {
      name: "seeds",
      title: "Seeds",
      kind: "FormStep",
      inputs: [{ name: "seeds", kind: "chipText", label: "Seeds", required: true }],
      viewer: "keywords",
    },
    {
      name: "ideas",
      title: "Ideas",
      kind: "IteratorStep",
      iterator: { over: "steps.seeds.values.seeds", maxItems: 2 },
      action: {
        kind: "FunctionCaller",
        label: "Research",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        function: "keywordResearch",
        args: { keyword: "{{item}}", site: "{{profile.websiteUrl}}" },
        output: { format: "data", sections: [{ key: "keywords", heading: "Keywords", maxChars: 12 }] },
      },
      viewer: "keywords",
    },
  ],
});

function deps(functions: FunctionRegistry): WorkflowsDeps {
  const engine = createOfflineEngine({ delayMs: 0 });
  return {
    engine,
    engines: { forUser: async () => engine, forget: () => undefined },
    functions,
    clients: { credits: undefined },
    logger: createLogger("workflows-test", "silent"),
    now: () => now,
  } as unknown as WorkflowsDeps;
}

function craftAt(progress: ReturnType<typeof startCraft>, def = research): StoredCraft {
  return {
    ...progress,
    id: "craft-1",
    rev: 1,
    userId: "user-1",
    projectId: "",
    profileId: profile.profileId,
    workflowName: def.name,
    workflowVersion: def.version,
    craftName: "x",
    profile,
    usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
    createdAt: now,
    updatedAt: now,
  } as unknown as StoredCraft;
}

const opened = completeStep(
  research,
  startCraft(research, profile, now),
  "seeds",
  { seeds: ["bread", "rye", "spelt"] },
  [],
  profile,
  now,
);
const ideasStep = research.steps[1]!;

describe("running a step's action", () => {
  it("calls a FunctionCaller once per item with rendered args, fitting data sections", async () => {
    const calls: Record<string, string>[] = [];
    const events: StepEvent[] = [];
    const outcome = await runStepAction(
      deps({
        keywordResearch: async (args) => {
          calls.push(args);
          return {
            content: `Ideas for ${args.keyword}`,
            data: { keywords: [{ keyword: `${args.keyword} recipes for beginners`, volume: 10 }, "plain"] },
          };
        },
      }),
      {
        userId: "user-1",
        craft: craftAt(opened.progress),
        def: research,
        step: ideasStep,
        values: {},
        signal: new AbortController().signal,
        emit: (event) => events.push(event),
      },
    );
    expect(calls).toEqual([
      { keyword: "bread", site: "https://crumb.example.com" },
      { keyword: "rye", site: "https://crumb.example.com" },
    ]);
    expect(outcome.results.map((r) => [r.item, r.itemIndex, r.format, r.content])).toEqual([
      ["bread", 0, "data", "Ideas for bread"],
      ["rye", 1, "data", "Ideas for rye"],
    ]);
    // An item over the section's limit is left out, never cut into another keyword.
    expect(outcome.results[0]!.sections).toEqual({ keywords: ["plain"] });
    expect(outcome.results[0]!.data).toEqual({
      keywords: [{ keyword: "bread recipes for beginners", volume: 10 }, "plain"],
    });
    expect(events.map((e) => (e.case === "started" ? `${e.value.engine}#${e.value.itemIndex}` : e.case))).toEqual([
      "function:keywordResearch#0",
      "function:keywordResearch#1",
    ]);
  });

  it("passes a function's spec error through, and fails an unregistered function as InternalServerError", async () => {
    const run = (functions: FunctionRegistry) =>
      runStepAction(deps(functions), {
        userId: "user-1",
        craft: craftAt(opened.progress),
        def: research,
        step: ideasStep,
        values: {},
        signal: new AbortController().signal,
        emit: () => {},
      }).catch((error) => describeError(error).code);
    expect(
      await run({
        keywordResearch: async () => {
          throw appError("NoKeywordDataFound");
        },
      }),
    ).toBe("NoKeywordDataFound");
    expect(await run({})).toBe("InternalServerError");
  });

  it("streams a text action per item and stops as Canceled when the signal aborts", async () => {
    const blog = completeStep(
      engineCheck,
      startCraft(engineCheck, profile, now),
      "brief",
      { topic: "Bread", channel: "blog" },
      [
        {
          id: "p1",
          content: "…",
          format: "list",
          sections: { titles: ["T"], outline: ["Why", "How"] },
          engine: "offline",
          usage: { inputTokens: 0, outputTokens: 0 },
          createdAt: now,
        },
      ],
      profile,
      now,
    ).progress;
    const ready = completeStep(engineCheck, blog, "extra", {}, [], profile, now).progress;
    const sections = engineCheck.steps[2]!;
    const events: StepEvent[] = [];
    const outcome = await runStepAction(deps({}), {
      userId: "user-1",
      craft: craftAt(ready, engineCheck),
      def: engineCheck,
      step: sections,
      values: {},
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
    });
    expect(outcome.results.map((r) => [r.item, r.itemIndex, r.format])).toEqual([
      ["Why", 0, "html"],
      ["How", 1, "html"],
    ]);
    const started = events
      .filter((e) => e.case === "started")
      .map((e) => (e.case === "started" ? e.value.itemIndex : -1));
    expect(started).toEqual([0, 1]);
    expect(events.filter((e) => e.case === "delta").length).toBeGreaterThan(2);

    const controller = new AbortController();
    const cancelled = runStepAction(deps({}), {
      userId: "user-1",
      craft: craftAt(ready, engineCheck),
      def: engineCheck,
      step: sections,
      values: {},
      signal: controller.signal,
      emit: (event) => {
        if (event.case === "delta") controller.abort();
      },
    });
    // Sent as Code.Canceled by the kit's errorInterceptor; nothing is returned to save.
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
  });
});
