import { audienceInput, keywordsInput } from "./common";

// KeywordResearch, version 1: keyword ideas with search volume, CPC and competition from the
// research provider (FunctionCaller keywordResearch; NoKeywordDataFound when there is none), then
// a plan by search intent written only from those rows.
export const keywordResearchV1 = {
  name: "KeywordResearch",
  version: 1,
  title: "Keyword research",
  description: "Find the keywords your customers search for, with volumes, and what to write for each.",
  category: "research",
  new: false,
  standalone: true,
  steps: [
    {
      name: "seeds",
      title: "Seed keywords",
      kind: "FormStep",
      inputs: [
        {
          ...keywordsInput,
          label: "Seed keywords",
          required: true,
          rules: [{ strength: "Must", check: "minItems", value: 1, message: "Add at least one seed keyword" }],
        },
        { name: "limit", kind: "slider", label: "How many ideas", min: 10, max: 100, step: 10, default: 30 },
      ],
      action: {
        kind: "FunctionCaller",
        label: "Research keywords",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        function: "keywordResearch",
        args: { keywords: "{{values.keywords}}", limit: "{{values.limit}}" },
        output: { format: "data", sections: [{ key: "keywords", heading: "Keywords" }] },
      },
      viewer: "keywords",
    },
    {
      name: "plan",
      title: "Keyword plan",
      kind: "FormStep",
      inputs: [audienceInput],
      action: {
        kind: "TextGenerator",
        label: "Plan content",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: ["You are an SEO strategist. You use only the keyword data given; you never invent volumes."],
          template: [
            "Business: {{profile.name}} — {{profile.description}}",
            "Audience: {{values.audience}}",
            "Keyword data:",
            "{{steps.seeds.result.content}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Best opportunities",
            "- the 5 best keywords (high volume, low competition), with their numbers",
            "## Clusters by intent",
            "- 'Intent: keyword, keyword' lines (learning, comparing, buying)",
            "## What to write",
            "- 3 pages or posts to write, each for one keyword",
          ],
          maxOutputTokens: 700,
        },
        output: {
          format: "list",
          sections: [
            { key: "opportunities", heading: "Best opportunities" },
            { key: "clusters", heading: "Clusters by intent" },
            { key: "actions", heading: "What to write" },
          ],
        },
        offline: { composer: "keywordPlan", framework: "SearchIntent" },
      },
      viewer: "bullet list",
    },
  ],
};
