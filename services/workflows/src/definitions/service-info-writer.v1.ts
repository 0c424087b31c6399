import { audienceInput, businessLines, copywriterSystem, ctaInput, keywordsInput, urlInput } from "./common";
import { seoSummaryAction } from "./offering-steps";

// ServiceInfoWriter, version 1: a service page by FAB, then its summary and search snippet.
export const serviceInfoWriterV1 = {
  name: "ServiceInfoWriter",
  version: 1,
  title: "Service description",
  description: "Write a service page — what's included, how it works, terms — and its SEO summary.",
  category: "offerings",
  new: false,
  steps: [
    {
      name: "service",
      title: "The service",
      kind: "FormStep",
      inputs: [
        { name: "name", kind: "text", label: "Service name", required: true, maxLength: 120 },
        { name: "description", kind: "text", label: "What is it?", maxLength: 500 },
        audienceInput,
        {
          name: "benefits",
          kind: "bulletPoint",
          label: "Benefits",
          required: true,
          maxItems: 8,
          maxLength: 120,
          rules: [{ strength: "Must", check: "minItems", value: 1, message: "Add at least one benefit" }],
        },
        { name: "features", kind: "bulletPoint", label: "What's included", maxItems: 8, maxLength: 120 },
        { name: "usage", kind: "text", label: "How it works", maxLength: 500 },
        { name: "terms", kind: "text", label: "Terms", maxLength: 300 },
        { ...ctaInput, default: "bookNow" },
        { ...urlInput, label: "Service page" },
      ],
      action: {
        kind: "TextGenerator",
        label: "Write service page",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 5,
        prompt: {
          system: [
            ...copywriterSystem,
            "You write service pages with the FAB framework: what's included, why it matters, what the client gets.",
          ],
          template: [
            ...businessLines,
            "Service: {{values.name}}",
            "What it is: {{values.description}}",
            "For: {{values.audience}}",
            "Benefits:",
            "{{values.benefits}}",
            "Included:",
            "{{values.features}}",
            "How it works: {{values.usage}}",
            "Terms: {{values.terms}}",
            "Call to action: {{values.cta}} → {{values.url}}",
            "",
            "Format: HTML only: <h1> with the service name, an opening <p>, an <h2> and a <ul> of what's included with its benefit, how it works, terms if given, and the call to action.",
          ],
          maxOutputTokens: 1200,
        },
        output: { format: "html" },
        offline: { composer: "servicePage", framework: "FAB" },
      },
      viewer: "rich text",
    },
    {
      name: "seo",
      title: "Summary and SEO",
      kind: "FormStep",
      inputs: [keywordsInput],
      action: seoSummaryAction("service", "service"),
      viewer: "bullet list",
    },
    { name: "page", title: "Your service page", kind: "FormStep", viewer: "rich text", resultsFrom: "service" },
  ],
};
