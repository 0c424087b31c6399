import { audienceInput, keywordsInput, styleInput } from "./common";

const fonts = [
  { label: "Inter", value: "Inter" },
  { label: "Montserrat", value: "Montserrat" },
  { label: "Playfair Display", value: "Playfair Display" },
  { label: "Lato", value: "Lato" },
  { label: "Nunito", value: "Nunito" },
  { label: "Oswald", value: "Oswald" },
  { label: "Source Sans 3", value: "Source Sans 3" },
];

// VisualIdentity, version 1: a palette by colour harmony from the brand colour (with WCAG contrast
// of text on each), a font pairing, an imagery direction and image prompts; the logo and
// moodboard images made on demand (ImageAppender); the web offers the palette and fonts in the
// visual designer from the last step.
export const visualIdentityV1 = {
  name: "VisualIdentity",
  version: 1,
  title: "Visual identity",
  description: "Colours, fonts and imagery for your brand, from your brand colour and style.",
  category: "business",
  new: false,
  steps: [
    {
      name: "brand",
      title: "Colour and style",
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
        { name: "primaryColor", kind: "colorPicker", label: "Brand colour", required: true, default: "#2f6f5e" },
        { name: "accentColor", kind: "colorPicker", label: "Accent colour (optional)" },
        styleInput,
        { name: "headingFont", kind: "font", label: "Heading font (optional)", options: fonts },
        {
          name: "bodyFont",
          kind: "font",
          label: "Body font (optional)",
          options: fonts,
          showWhen: { ref: "values.headingFont", op: "hasValue" },
        },
        {
          name: "moods",
          kind: "chipText",
          label: "Mood words",
          placeholder: "e.g. warm, honest",
          maxItems: 5,
          maxLength: 30,
        },
        audienceInput,
        { ...keywordsInput, label: "What your images are about" },
      ],
      action: {
        kind: "TextGenerator",
        label: "Build identity",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You are a brand designer. You build palettes from colour harmony and check text contrast against WCAG 2 (4.5:1 for body text).",
          ],
          template: [
            "Business: {{values.businessName}} — {{profile.description}}",
            "Brand colour: {{values.primaryColor}}",
            "Accent: {{values.accentColor}}",
            "Style: {{values.style}}",
            "Fonts: {{values.headingFont}} / {{values.bodyFont}}",
            "Mood: {{values.moods}}",
            "Audience: {{values.audience}}",
            "Subjects: {{values.keywords}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Palette",
            "- 5 colours as 'Role: #rrggbb — text #rrggbb (contrast n.n:1)'",
            "## Fonts",
            "- heading font, body font, sizes",
            "## Imagery",
            "- 3 or 4 rules for photos and illustrations",
            "## Image prompts",
            "- 3 image generator prompts",
          ],
          maxOutputTokens: 800,
        },
        output: {
          format: "list",
          sections: [
            { key: "palette", heading: "Palette" },
            { key: "fonts", heading: "Fonts" },
            { key: "imagery", heading: "Imagery" },
            { key: "prompts", heading: "Image prompts" },
          ],
        },
        offline: { composer: "visualIdentity", framework: "ColorHarmony" },
      },
      viewer: "bullet list",
    },
    {
      name: "logo",
      title: "Logo and moodboard",
      kind: "FormStep",
      action: {
        kind: "ImageAppender",
        label: "Create logo ideas",
        resultMode: "AppendResults",
        resultViewTrigger: "Manual",
        params: { kind: "logo" },
      },
      viewer: "image select",
    },
    { name: "identity", title: "Your identity", kind: "FormStep", viewer: "bullet list", resultsFrom: "brand" },
  ],
};
