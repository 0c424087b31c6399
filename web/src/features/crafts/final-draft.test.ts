import { describe, expect, it } from "@jest/globals";
import type { CraftStep, StepResult } from "../../api/types";
import { finalDraft } from "./final-draft";

const result = (id: string, content: string, extra: Partial<StepResult> = {}): StepResult => ({
  id,
  content,
  format: "text",
  ...extra,
});
const step = (name: string, results: StepResult[], extra: Partial<CraftStep> = {}): CraftStep => ({
  name,
  kind: "FormStep",
  state: "Completed",
  status: "completed",
  results,
  ...extra,
});

describe("the final draft", () => {
  it("is the newest result of the last step with results", () => {
    const draft = finalDraft({
      steps: [step("a", [result("1", "old")]), step("b", [result("2", "x"), result("3", "y")])],
    });
    expect(draft?.result.id).toBe("3");
  });

  it("is every item's result in order when the results were written per item (the whole podcast script)", () => {
    const script = [
      result("w", "HOST: Wrap-up.", { itemIndex: 2 }),
      result("o", "HOST: Cold open.", { itemIndex: 0 }),
      result("m1", "HOST: Middle, first take.", { itemIndex: 1, selected: true }),
      result("m2", "HOST: Middle, second take.", { itemIndex: 1 }),
    ];
    const draft = finalDraft({ steps: [step("episodeScript", script, { resultsFrom: "script" })] });
    expect(draft?.result.content).toBe("HOST: Cold open.\n\nHOST: Middle, first take.\n\nHOST: Wrap-up.");
    expect(draft?.result.itemIndex).toBeUndefined();
  });

  it("is none without results", () => {
    expect(finalDraft({ steps: [step("a", [])] })).toBeNull();
  });
});
