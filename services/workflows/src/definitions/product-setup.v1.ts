import { audienceInput, keywordsInput } from "./common";
import { imagesStep, seoSummaryAction } from "./offering-steps";

// ProductSetup, version 1: the product offering's fields (spec section 3: name, keywords, audience,
// description, page url, features, shipping and returns, usage, SEO summary, page slug, images).
export const productSetupV1 = {
  name: "ProductSetup",
  version: 1,
  title: "Product setup",
  description: "Add a product with its details, a summary, SEO title, meta description and page slug.",
  category: "offerings",
  new: false,
  steps: [
    {
      name: "details",
      title: "Product details",
      kind: "FormStep",
      inputs: [
        { name: "name", kind: "text", label: "Product name", required: true, maxLength: 120 },
        { name: "description", kind: "text", label: "Description", required: true, maxLength: 1000 },
        { ...audienceInput, defaultFrom: "profile.audience" },
        { name: "pageUrl", kind: "url", label: "Product page", format: "Url", maxLength: 300 },
        {
          name: "features",
          kind: "bulletPoint",
          label: "Features",
          maxItems: 10,
          maxLength: 120,
          rules: [
            {
              strength: "Should",
              check: "minItems",
              value: 3,
              message: "Three features make a product page convincing",
            },
          ],
        },
        { name: "shipping", kind: "text", label: "Shipping and returns", maxLength: 500 },
        { name: "usage", kind: "text", label: "How to use it", maxLength: 500 },
        {
          name: "shopifyProduct",
          kind: "thirdPartyObjectPicker",
          label: "Link a Shopify product (optional)",
          source: { provider: "shopify", objectType: "product" },
        },
      ],
      viewer: "plain text",
    },
    {
      name: "summary",
      title: "Summary and SEO",
      kind: "FormStep",
      inputs: [{ ...keywordsInput, defaultFrom: "profile.keywords" }],
      action: seoSummaryAction("product", "details"),
      viewer: "bullet list",
    },
    imagesStep,
    { name: "product", title: "Your product", kind: "FormStep", viewer: "bullet list", resultsFrom: "summary" },
  ],
};
