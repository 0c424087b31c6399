import { audienceInput, keywordsInput } from "./common";

// BusinessSetup, version 1: the business profile drafted from an audit of the business's website
// (FunctionCaller websiteAudit) and a few answers. Without a website the audit step is skipped.
export const businessSetupV1 = {
  name: "BusinessSetup",
  version: 1,
  title: "Business setup",
  description: "Set up your business profile from an audit of your website and a few answers.",
  category: "business",
  new: false,
  steps: [
    {
      name: "start",
      title: "Your business",
      kind: "FormStep",
      inputs: [
        {
          name: "businessName",
          kind: "text",
          label: "Business name",
          required: true,
          defaultFrom: "profile.name",
          maxLength: 100,
        },
        {
          name: "hasWebsite",
          kind: "radioSelect",
          label: "Do you have a website?",
          required: true,
          default: "yes",
          options: [
            { label: "Yes", value: "yes" },
            { label: "Not yet", value: "no" },
          ],
        },
      ],
      viewer: "plain text",
    },
    {
      name: "audit",
      title: "Website audit",
      description: "We read your home page the way a search engine does.",
      kind: "FormStep",
      skipWhen: { ref: "steps.start.values.hasWebsite", op: "==", value: "no" },
      inputs: [
        {
          name: "websiteUrl",
          kind: "url",
          label: "Website address",
          placeholder: "https://…",
          required: true,
          defaultFrom: "profile.websiteUrl",
          format: "Url",
          maxLength: 300,
        },
      ],
      action: {
        kind: "FunctionCaller",
        label: "Audit website",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        function: "websiteAudit",
        args: { url: "{{values.websiteUrl}}" },
        output: {
          format: "data",
          sections: [
            { key: "issues", heading: "Issues" },
            { key: "headings", heading: "Headings" },
          ],
        },
      },
      viewer: "website audit summary",
    },
    {
      name: "profile",
      title: "Profile",
      description: "Check the answers; the audit filled in what it could.",
      kind: "FormStep",
      inputs: [
        {
          name: "description",
          kind: "text",
          label: "What does your business do?",
          defaultFrom: "profile.description",
          maxLength: 500,
        },
        { ...audienceInput, required: true },
        keywordsInput,
        { name: "offerings", kind: "bulletPoint", label: "Main products or services", maxItems: 8, maxLength: 100 },
      ],
      action: {
        kind: "TextGenerator",
        label: "Draft profile",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You write concise business profiles from facts given to you and a website audit; you never invent facts.",
          ],
          template: [
            "Business name: {{steps.start.values.businessName}}",
            "Description: {{values.description}}",
            "Customers: {{values.audience}}",
            "Keywords: {{values.keywords}}",
            "Offerings:",
            "{{values.offerings}}",
            "Website audit:",
            "{{steps.audit.result.content}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Name",
            "## Description",
            "## Audience",
            "## Keywords",
            "## Offerings",
            "## Website fixes",
            "(each heading followed by '- ' items; description at most 300 characters)",
          ],
          maxOutputTokens: 800,
        },
        output: {
          format: "list",
          sections: [
            { key: "name", heading: "Name" },
            { key: "description", heading: "Description", maxChars: 300 },
            { key: "audience", heading: "Audience" },
            { key: "keywords", heading: "Keywords" },
            { key: "offerings", heading: "Offerings" },
            { key: "fixes", heading: "Website fixes", minItems: 0 },
          ],
        },
        offline: { composer: "businessProfile", framework: "StoryBrand" },
      },
      viewer: "bullet list",
    },
    { name: "summary", title: "Your profile", kind: "FormStep", viewer: "bullet list", resultsFrom: "profile" },
  ],
};
