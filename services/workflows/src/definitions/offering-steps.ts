// Steps product and service definitions share: the SEO summary (title ≤ 60 characters, meta
// description ≤ 160, which is what search results show) and the images step of the media issue.

export function seoSummaryAction(kind: "product" | "service", from: string) {
  return {
    kind: "TextGenerator",
    label: "Write summary and SEO",
    resultMode: "ReplaceResults",
    resultViewTrigger: "AfterOpen",
    prompt: {
      system: ["You write product and service summaries and search snippets for small businesses; no invented claims."],
      template: [
        `Write the summary and search snippet of this ${kind}.`,
        "Business: {{profile.name}}",
        `Name: {{steps.${from}.values.name}}`,
        `Description: {{steps.${from}.values.description}}`,
        `Audience: {{steps.${from}.values.audience}}`,
        kind === "product"
          ? `Features: {{steps.${from}.values.features}}`
          : `Benefits: {{steps.${from}.values.benefits}}`,
        "Keywords: {{values.keywords}}",
        "",
        "Reply in exactly this format and nothing else:",
        "## Summary",
        "- one summary of at most 300 characters",
        kind === "product" ? "## Features" : "## Benefits",
        "- 3 to 6 short points",
        "## SEO title",
        "- one title of at most 60 characters",
        "## Meta description",
        "- one description of at most 160 characters",
        "## Page slug",
        "- one lowercase-with-hyphens slug",
      ],
      maxOutputTokens: 600,
    },
    output: {
      format: "list",
      sections: [
        { key: "summary", heading: "Summary", maxChars: 300 },
        { key: "points", heading: kind === "product" ? "Features" : "Benefits" },
        { key: "seoTitle", heading: "SEO title", maxChars: 60 },
        { key: "seoDescription", heading: "Meta description", maxChars: 160 },
        { key: "slug", heading: "Page slug", maxChars: 60 },
      ],
    },
    offline: { composer: kind === "product" ? "productSummary" : "serviceSummary", framework: "FAB" },
  };
}

export const imagesStep = {
  name: "images",
  title: "Logo and images",
  kind: "FormStep",
  action: {
    kind: "ImageAppender",
    label: "Add images",
    resultMode: "AppendResults",
    resultViewTrigger: "Manual",
  },
  viewer: "image select",
};
