import { audienceInput, painPointsInput } from "./common";

// ProductIdeaList, version 1: product ideas by jobs to be done, and how to test them cheaply.
export const productIdeaListV1 = {
  name: "ProductIdeaList",
  version: 1,
  title: "Product ideas",
  description: "Brainstorm product ideas for your audience and how to test them before making them.",
  category: "offerings",
  new: false,
  steps: [
    {
      name: "brief",
      title: "What to brainstorm",
      kind: "FormStep",
      inputs: [
        {
          name: "themes",
          kind: "chipText",
          label: "Themes",
          placeholder: "e.g. sourdough, baking classes",
          required: true,
          defaultFrom: "profile.keywords",
          maxItems: 4,
          maxLength: 60,
          rules: [{ strength: "Must", check: "minItems", value: 1, message: "Add a theme to brainstorm around" }],
        },
        { ...audienceInput, required: true },
        painPointsInput,
        {
          name: "priceRange",
          kind: "select",
          label: "Price range",
          options: [
            { label: "Under £20", value: "under £20" },
            { label: "£20–£100", value: "£20–£100" },
            { label: "Over £100", value: "over £100" },
          ],
        },
        { name: "count", kind: "number", label: "How many ideas", min: 3, max: 10, step: 1, default: 6 },
      ],
      action: {
        kind: "TextGenerator",
        label: "Brainstorm",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 5,
        prompt: {
          system: ["You are a product strategist for small businesses. You think in jobs to be done."],
          template: [
            "Business: {{profile.name}} — {{profile.description}}",
            "Themes: {{values.themes}}",
            "Audience: {{values.audience}}",
            "Their problems:",
            "{{values.painPoints}}",
            "Price range: {{values.priceRange}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Ideas",
            "- {{values.count}} product ideas, each one line: the product and who it is for",
            "## How to test them",
            "- 3 cheap ways to test demand",
          ],
          maxOutputTokens: 700,
        },
        output: {
          format: "list",
          sections: [
            { key: "ideas", heading: "Ideas", minItems: 3 },
            { key: "validation", heading: "How to test them" },
          ],
        },
        offline: { composer: "productIdeas", framework: "JTBD" },
      },
      viewer: "multi select list",
    },
    { name: "ideas", title: "Your ideas", kind: "FormStep", viewer: "multi select list", resultsFrom: "brief" },
  ],
};
