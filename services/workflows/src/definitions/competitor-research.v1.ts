import { audienceInput } from "./common";

// CompetitorResearch, version 1: the domains competing with yours in search (FunctionCaller
// competitorResearch; NoCompetitorDataFound when the provider has none), then where to stand out.
export const competitorResearchV1 = {
  name: "CompetitorResearch",
  version: 1,
  title: "Competitor research",
  description: "See which sites compete with yours in search and where you can stand out.",
  category: "research",
  new: false,
  standalone: true,
  steps: [
    {
      name: "domain",
      title: "Your website",
      kind: "FormStep",
      inputs: [
        {
          name: "domain",
          kind: "url",
          label: "Your website or domain",
          placeholder: "example.com",
          required: true,
          defaultFrom: "profile.websiteUrl",
          maxLength: 200,
        },
        { name: "limit", kind: "number", label: "How many competitors", min: 3, max: 30, step: 1, default: 10 },
      ],
      action: {
        kind: "FunctionCaller",
        label: "Find competitors",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        function: "competitorResearch",
        args: { domain: "{{values.domain}}", limit: "{{values.limit}}" },
        output: { format: "data", sections: [{ key: "competitors", heading: "Competitors" }] },
      },
      viewer: "grid",
    },
    {
      name: "insights",
      title: "Where to stand out",
      kind: "FormStep",
      inputs: [
        audienceInput,
        { name: "differentiators", kind: "bulletPoint", label: "What you do better", maxItems: 5, maxLength: 150 },
      ],
      action: {
        kind: "TextGenerator",
        label: "Find your edge",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: ["You are a marketing strategist. You use only the competitor data given; you never invent figures."],
          template: [
            "Business: {{profile.name}} — {{profile.description}}",
            "Audience: {{values.audience}}",
            "Strengths:",
            "{{values.differentiators}}",
            "Competitor data:",
            "{{steps.domain.result.content}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Competitors",
            "- one line per competitor with its numbers",
            "## Their keywords",
            "- keywords they rank for (if given)",
            "## How to stand out",
            "- 3 to 5 concrete moves",
          ],
          maxOutputTokens: 700,
        },
        output: {
          format: "list",
          sections: [
            { key: "competitors", heading: "Competitors" },
            { key: "theirKeywords", heading: "Their keywords", minItems: 0 },
            { key: "standOut", heading: "How to stand out" },
          ],
        },
        offline: { composer: "competitorInsights", framework: "STP" },
      },
      viewer: "bullet list",
    },
  ],
};
