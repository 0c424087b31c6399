import { audienceInput, businessLines, copywriterSystem, ctaInput, keywordsInput, urlInput } from "./common";
import { seoSummaryAction } from "./offering-steps";

// ProductInfoWriter, version 1: a product page by FAB (feature → advantage → benefit), then its
// summary and search snippet.
export const productInfoWriterV1 = {
  name: "ProductInfoWriter",
  version: 1,
  title: "Product description",
  description: "Write a product page — description, features, usage, shipping — and its SEO summary.",
  category: "offerings",
  new: false,
  steps: [
    {
      name: "product",
      title: "The product",
      kind: "FormStep",
      inputs: [
        { name: "name", kind: "text", label: "Product name", required: true, maxLength: 120 },
        { name: "description", kind: "text", label: "What is it?", maxLength: 500 },
        audienceInput,
        {
          name: "features",
          kind: "bulletPoint",
          label: "Features",
          required: true,
          maxItems: 8,
          maxLength: 120,
          rules: [{ strength: "Must", check: "minItems", value: 1, message: "Add at least one feature" }],
        },
        {
          name: "benefits",
          kind: "bulletPoint",
          label: "What each feature does for the buyer",
          maxItems: 8,
          maxLength: 120,
        },
        { name: "usage", kind: "text", label: "How to use it", maxLength: 500 },
        { name: "shipping", kind: "text", label: "Shipping and returns", maxLength: 300 },
        { ...ctaInput, default: "shopNow" },
        { ...urlInput, label: "Product page" },
      ],
      action: {
        kind: "TextGenerator",
        label: "Write product page",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 5,
        prompt: {
          system: [...copywriterSystem, "You write product pages with the FAB framework: feature, advantage, benefit."],
          template: [
            ...businessLines,
            "Product: {{values.name}}",
            "What it is: {{values.description}}",
            "For: {{values.audience}}",
            "Features:",
            "{{values.features}}",
            "Benefits:",
            "{{values.benefits}}",
            "Usage: {{values.usage}}",
            "Shipping and returns: {{values.shipping}}",
            "Call to action: {{values.cta}} → {{values.url}}",
            "",
            "Format: HTML only: <h1> with the product name, an opening <p>, an <h2> and a <ul> of features each with its benefit, usage and shipping sections if given, and the call to action.",
          ],
          maxOutputTokens: 1200,
        },
        output: { format: "html" },
        offline: { composer: "productPage", framework: "FAB" },
      },
      viewer: "rich text",
    },
    {
      name: "seo",
      title: "Summary and SEO",
      kind: "FormStep",
      inputs: [keywordsInput],
      action: seoSummaryAction("product", "product"),
      viewer: "bullet list",
    },
    { name: "page", title: "Your product page", kind: "FormStep", viewer: "rich text", resultsFrom: "product" },
  ],
};
