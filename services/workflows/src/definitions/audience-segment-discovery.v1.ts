import { audienceInput, benefitsInput, ctaInput, descriptionInput, offeringInput } from "./common";

// AudienceSegmentDiscovery, version 1: segments by STP (segmentation, targeting, positioning).
export const audienceSegmentDiscoveryV1 = {
  name: "AudienceSegmentDiscovery",
  version: 1,
  title: "Audience segments",
  description: "Discover the groups of customers most likely to buy, with a message and a channel for each.",
  category: "research",
  new: false,
  steps: [
    {
      name: "business",
      title: "Your customers today",
      kind: "FormStep",
      inputs: [
        offeringInput,
        descriptionInput,
        { ...audienceInput, required: true },
        {
          name: "customerTypes",
          kind: "chipText",
          label: "Kinds of customers you already have",
          placeholder: "e.g. cafés, home bakers",
          maxItems: 5,
          maxLength: 60,
        },
        {
          name: "region",
          kind: "autoComplete",
          label: "Where are they?",
          placeholder: "Town, region or online",
          options: [
            { label: "Local (my town)", value: "my town" },
            { label: "Nationwide", value: "the whole country" },
            { label: "Online, worldwide", value: "anywhere online" },
          ],
          maxLength: 80,
        },
        benefitsInput,
        ctaInput,
      ],
      action: {
        kind: "TextGenerator",
        label: "Find segments",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 3,
        prompt: {
          system: [
            "You are a marketing strategist. You segment, target and position (STP) from what you are told; no made-up statistics.",
          ],
          template: [
            "Business: {{profile.name}}",
            "Offering: {{values.offering}} — {{values.description}}",
            "Audience: {{values.audience}}",
            "Customer kinds: {{values.customerTypes}}",
            "Region: {{values.region}}",
            "Benefits:",
            "{{values.benefits}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Segments",
            "- 3 to 5 segments: who, what they want, where to reach them",
            "## Messages",
            "- one message per segment",
            "## Questions to ask customers",
            "- 3 questions that would confirm the segments",
          ],
          maxOutputTokens: 900,
        },
        output: {
          format: "list",
          sections: [
            { key: "segments", heading: "Segments" },
            { key: "messages", heading: "Messages" },
            { key: "questions", heading: "Questions to ask customers" },
          ],
        },
        offline: { composer: "audienceSegments", framework: "STP" },
      },
      viewer: "multi select list",
    },
    {
      name: "segments",
      title: "Your segments",
      kind: "FormStep",
      viewer: "multi select list",
      resultsFrom: "business",
    },
  ],
};
