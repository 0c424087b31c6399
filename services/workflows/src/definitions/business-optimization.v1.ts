import { painPointsInput, urlInput } from "./common";

// BusinessOptimization, version 1: what to improve next, ranked by ICE (impact, confidence, ease).
export const businessOptimizationV1 = {
  name: "BusinessOptimization",
  version: 1,
  title: "Business optimization",
  description: "Find what to improve next: ideas ranked by impact, confidence and ease, with quick wins.",
  category: "business",
  new: false,
  steps: [
    {
      name: "today",
      title: "Where you are",
      kind: "FormStep",
      inputs: [
        {
          name: "focusArea",
          kind: "radioSelect",
          label: "What do you want to improve?",
          required: true,
          default: "sales",
          options: [
            { label: "Sales", value: "sales" },
            { label: "Marketing", value: "marketing" },
            { label: "Customer service", value: "customer service" },
            { label: "Operations", value: "operations" },
          ],
        },
        {
          ...painPointsInput,
          label: "What is not working?",
          required: true,
          rules: [
            { strength: "Must", check: "minItems", value: 1, message: "Name at least one thing that is not working" },
          ],
        },
        { name: "whatWorks", kind: "bulletPoint", label: "What already works?", maxItems: 5, maxLength: 120 },
        {
          name: "goal",
          kind: "text",
          label: "Goal for the next 3 months",
          placeholder: "e.g. 20 more orders a month",
          maxLength: 150,
        },
        {
          name: "monthlyBudget",
          kind: "slider",
          label: "Monthly marketing budget",
          min: 0,
          max: 5000,
          step: 50,
          default: 200,
          showWhen: { ref: "values.focusArea", op: "in", value: ["sales", "marketing"] },
        },
        { ...urlInput, label: "Website" },
      ],
      action: {
        kind: "TextGenerator",
        label: "Find improvements",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You are a small-business consultant. You rank improvement ideas by ICE (impact, confidence, ease, 1–10 each) and prefer cheap, testable changes.",
          ],
          template: [
            "Business: {{profile.name}} — {{profile.description}}",
            "Customers: {{profile.audience}}",
            "Improve: {{values.focusArea}}",
            "Not working:",
            "{{values.painPoints}}",
            "Working:",
            "{{values.whatWorks}}",
            "Goal: {{values.goal}}",
            "Monthly budget: {{values.monthlyBudget}}",
            "Website: {{values.url}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Priorities",
            "- 5 to 8 ideas, best ICE first, each ending with (ICE i×c×e = score)",
            "## Quick wins",
            "- 3 things to do this week",
            "## Metrics",
            "- 3 numbers to track",
          ],
          maxOutputTokens: 900,
        },
        output: {
          format: "list",
          sections: [
            { key: "priorities", heading: "Priorities" },
            { key: "quickWins", heading: "Quick wins" },
            { key: "metrics", heading: "Metrics" },
          ],
        },
        offline: { composer: "businessOptimization", framework: "ICE" },
      },
      viewer: "bullet list",
    },
    { name: "plan", title: "Your plan", kind: "FormStep", viewer: "bullet list", resultsFrom: "today" },
  ],
};
