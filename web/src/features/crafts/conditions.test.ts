import { describe, expect, it } from "@jest/globals";
import { evaluateCondition, referenceScope } from "./conditions";

// The evaluator and references are the workflow language's (@crafter/workflow-language); these
// cases pin the references the web resolves and the behaviour the renderer relies on.

const scope = referenceScope(
  { channel: "Instagram", budget: 120, tags: ["sale", "spring"], note: "", headline: "Spring Sale now on" },
  [
    {
      name: "audience",
      values: { segment: "families" },
      results: [{ content: "", sections: { keywords: ["bikes", "repair"] } }],
    },
  ],
  { name: "Spoke & Sprocket" },
);

describe("showWhen conditions (engine contract section 1)", () => {
  it("compares values with == != and the numeric operators", () => {
    expect(evaluateCondition({ ref: "values.channel", op: "==", value: "Instagram" }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.channel", op: "!=", value: "Instagram" }, scope)).toBe(false);
    expect(evaluateCondition({ ref: "values.budget", op: ">", value: 100 }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.budget", op: "<=", value: 100 }, scope)).toBe(false);
    expect(evaluateCondition({ ref: "values.budget", op: ">=", value: 120 }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.budget", op: "<", value: 121 }, scope)).toBe(true);
  });

  it("knows hasValue, in, not in, contains and notContains on strings and arrays", () => {
    expect(evaluateCondition({ ref: "values.note", op: "hasValue" }, scope)).toBe(false);
    expect(evaluateCondition({ ref: "values.channel", op: "hasValue" }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.missing", op: "hasValue" }, scope)).toBe(false);
    expect(evaluateCondition({ ref: "values.channel", op: "in", value: ["Instagram", "TikTok"] }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.channel", op: "not in", value: ["Instagram"] }, scope)).toBe(false);
    expect(evaluateCondition({ ref: "values.headline", op: "contains", value: "sale" }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.tags", op: "contains", value: "sale" }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "values.tags", op: "notContains", value: "winter" }, scope)).toBe(true);
  });

  it("reads other steps and the profile, and combines with all / any / not", () => {
    expect(evaluateCondition({ ref: "steps.audience.values.segment", op: "==", value: "families" }, scope)).toBe(true);
    expect(evaluateCondition({ ref: "steps.audience.result.keywords", op: "contains", value: "bikes" }, scope)).toBe(
      true,
    );
    expect(evaluateCondition({ ref: "profile.name", op: "hasValue" }, scope)).toBe(true);
    const instagramWithBudget = {
      all: [
        { ref: "values.channel", op: "==", value: "Instagram" },
        { any: [{ ref: "values.budget", op: ">", value: 1000 }, { not: { ref: "values.note", op: "hasValue" } }] },
      ],
    };
    expect(evaluateCondition(instagramWithBudget, scope)).toBe(true);
    expect(evaluateCondition({ not: instagramWithBudget }, scope)).toBe(false);
  });

  it("resolves the first item of a result section and the whole result text", () => {
    const withContent = referenceScope({}, [
      { name: "brief", results: [{ content: "Fast fixes", sections: { angles: ["price", "speed"] } }] },
    ]);
    expect(evaluateCondition({ ref: "steps.brief.result.angles[0]", op: "==", value: "price" }, withContent)).toBe(
      true,
    );
    expect(evaluateCondition({ ref: "steps.brief.result.content", op: "contains", value: "fast" }, withContent)).toBe(
      true,
    );
  });

  it("treats a missing condition as holding", () => {
    expect(evaluateCondition(undefined, scope)).toBe(true);
    expect(evaluateCondition(null, scope)).toBe(true);
  });
});
