import { audienceInput, keywordsInput } from "./common";
import { imagesStep, seoSummaryAction } from "./offering-steps";

// ServiceSetup, version 1: the service offering's fields (spec section 3: name, keywords, audience,
// description, benefits, terms, summary, web page url, images).
export const serviceSetupV1 = {
  name: "ServiceSetup",
  version: 1,
  title: "Service setup",
  description: "Add a service with its details, a summary, SEO title, meta description and page slug.",
  category: "offerings",
  new: false,
  steps: [
    {
      name: "details",
      title: "Service details",
      kind: "FormStep",
      inputs: [
        { name: "name", kind: "text", label: "Service name", required: true, maxLength: 120 },
        { name: "description", kind: "text", label: "Description", required: true, maxLength: 1000 },
        { ...audienceInput, defaultFrom: "profile.audience" },
        {
          name: "benefits",
          kind: "bulletPoint",
          label: "Benefits",
          maxItems: 8,
          maxLength: 120,
          rules: [{ strength: "Should", check: "minItems", value: 2, message: "Two or three benefits sell a service" }],
        },
        { name: "terms", kind: "text", label: "Terms", placeholder: "e.g. 24-hour cancellation", maxLength: 500 },
        { name: "pageUrl", kind: "url", label: "Service page", format: "Url", maxLength: 300 },
      ],
      viewer: "plain text",
    },
    {
      name: "summary",
      title: "Summary and SEO",
      kind: "FormStep",
      inputs: [{ ...keywordsInput, defaultFrom: "profile.keywords" }],
      action: seoSummaryAction("service", "details"),
      viewer: "bullet list",
    },
    imagesStep,
    { name: "service", title: "Your service", kind: "FormStep", viewer: "bullet list", resultsFrom: "summary" },
  ],
};
