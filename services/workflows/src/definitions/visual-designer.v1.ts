import { styleInput } from "./common";

// VisualDesigner, version 1: a design brief and image prompts, then the canvas, opened with the
// brief applied (format → page size, headline, brand colour, prompts to generate an image from);
// saving the design completes the step with it and its PNG (a designer asset).
export const visualDesignerV1 = {
  name: "VisualDesigner",
  version: 1,
  title: "Visual designer",
  description: "Brief a design — a post, story, cover or flyer — get image prompts, then design it on a canvas.",
  category: "design",
  new: true,
  standalone: true,
  steps: [
    {
      name: "brief",
      title: "Design brief",
      kind: "FormStep",
      inputs: [
        {
          name: "format",
          kind: "select",
          label: "Format",
          required: true,
          default: "square",
          options: [
            { label: "Instagram post (1080×1080)", value: "square" },
            { label: "Story (1080×1920)", value: "story" },
            { label: "Facebook cover (1640×624)", value: "cover" },
            { label: "Flyer (A5)", value: "flyer" },
          ],
        },
        { name: "headline", kind: "text", label: "Headline on the design", maxLength: 60 },
        { name: "subject", kind: "text", label: "What should it show?", required: true, maxLength: 200 },
        styleInput,
        { name: "primaryColor", kind: "colorPicker", label: "Brand colour" },
        { name: "moods", kind: "chipText", label: "Mood words", maxItems: 5, maxLength: 30 },
        {
          name: "sourceCraft",
          kind: "craftPicker",
          label: "Use the text of a craft (optional)",
          source: { workflowNames: ["SocialMediaPostWriter", "FacebookAdsWriter", "Campaign"] },
        },
      ],
      action: {
        kind: "promptWriterAction",
        label: "Write image prompts",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You write prompts for image generators: concrete subject, setting, style, light and colour; leave space for the headline; no text in the image.",
          ],
          template: [
            "Business: {{profile.name}}",
            "Format: {{values.format}}",
            "Headline: {{values.headline}}",
            "Subject: {{values.subject}}",
            "Style: {{values.style}}",
            "Colour: {{values.primaryColor}}",
            "Mood: {{values.moods}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Prompts",
            "- 4 image prompts, one line each",
          ],
          maxOutputTokens: 400,
        },
        output: { format: "list", sections: [{ key: "prompts", heading: "Prompts" }] },
        offline: { composer: "imagePrompts", framework: "ColorHarmony", params: { count: 4 } },
      },
      viewer: "text list",
    },
    {
      name: "design",
      title: "Design",
      kind: "FormStep",
      action: {
        kind: "VisualDesigner",
        label: "Open designer",
        resultMode: "ReplaceResults",
        resultViewTrigger: "Manual",
      },
      viewer: "visual designer",
    },
  ],
};
