import {
  audienceInput,
  benefitsInput,
  businessLines,
  copywriterSystem,
  ctaInput,
  featuresInput,
  keywordsInput,
  offerInput,
  offeringInput,
  urlInput,
} from "./common";

// AdsWriter, version 1: one ad for the chosen platform, Features → Advantages → Benefits. The
// composer keeps each platform's limits (generation/offline/limits.ts AD_PLATFORMS); the sections'
// maxChars are the largest of them, so every engine stays within the roomiest platform.
export const adsWriterV1 = {
  name: "AdsWriter",
  version: 1,
  title: "Ad",
  description:
    "Ad copy for Google, Facebook / Instagram, LinkedIn or TikTok: headlines, body text and calls to action.",
  category: "content",
  new: false,
  steps: [
    {
      name: "brief",
      title: "Platform and product",
      kind: "FormStep",
      inputs: [
        {
          name: "platform",
          kind: "radioSelect",
          label: "Where will the ad run?",
          required: true,
          default: "meta",
          options: [
            { label: "Google search", value: "google" },
            { label: "Facebook / Instagram", value: "meta" },
            { label: "LinkedIn", value: "linkedin" },
            { label: "TikTok", value: "tiktok" },
          ],
        },
        offeringInput,
        audienceInput,
        {
          ...featuresInput,
          required: true,
          rules: [
            { strength: "Must", check: "minItems", value: 1, message: "Add at least one feature to build the ad on" },
          ],
        },
        benefitsInput,
        offerInput,
        ctaInput,
        { ...keywordsInput, showWhen: { ref: "values.platform", op: "==", value: "google" } },
        urlInput,
      ],
      action: {
        kind: "TextGenerator",
        label: "Write ad",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 5,
        prompt: {
          system: [...copywriterSystem, "You write ads with the FAB framework: feature, advantage, benefit."],
          template: [
            "Write an ad for {{values.platform}}.",
            ...businessLines,
            "Promoting: {{values.offering}}",
            "Audience: {{values.audience}}",
            "Features:",
            "{{values.features}}",
            "Benefits:",
            "{{values.benefits}}",
            "Offer: {{values.offer}}",
            "Keywords: {{values.keywords}}",
            "Call to action: {{values.cta}}",
            "",
            "Limits: Google 30-character headlines and 90-character text; Facebook / Instagram 40 and 125; LinkedIn 70 and 150; TikTok 40 and 100.",
            "Reply in exactly this format and nothing else:",
            "## Headlines",
            "- 5 headlines within the platform's headline limit",
            "## Body text",
            "- 3 body texts within the platform's text limit, each a feature, its advantage and the benefit",
            "## Calls to action",
            "- 3 short calls to action",
          ],
          maxOutputTokens: 600,
          temperature: 0.8,
        },
        output: {
          format: "list",
          sections: [
            { key: "headlines", heading: "Headlines", maxChars: 70 },
            { key: "bodies", heading: "Body text", maxChars: 150 },
            { key: "ctas", heading: "Calls to action", minItems: 0, maxChars: 40 },
          ],
        },
        offline: { composer: "adCopy", framework: "FAB" },
      },
      viewer: "text list",
    },
    { name: "ad", title: "Your ad", kind: "FormStep", viewer: "text list", resultsFrom: "brief" },
  ],
};
