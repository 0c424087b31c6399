// Inputs and prompt lines several workflow definitions share. Plain JSON-shaped data: a
// definition copies them into its steps (spread), so each definition still reads as data.

export const offeringInput = {
  name: "offering",
  kind: "text",
  label: "What are you promoting?",
  placeholder: "e.g. Sourdough starter kit",
  required: true,
  defaultFrom: "profile.name",
  maxLength: 120,
};

export const descriptionInput = {
  name: "description",
  kind: "text",
  label: "Describe it in a sentence",
  placeholder: "What it is and why it is good",
  defaultFrom: "profile.description",
  maxLength: 500,
};

export const audienceInput = {
  name: "audience",
  kind: "text",
  label: "Audience",
  placeholder: "Who is it for? e.g. home bakers",
  defaultFrom: "profile.audience",
  maxLength: 150,
  rules: [
    { strength: "Should", check: "minLength", value: 3, message: "Name your audience so the copy speaks to them" },
  ],
};

export const keywordsInput = {
  name: "keywords",
  kind: "chipText",
  label: "Keywords",
  placeholder: "Add a keyword and press Enter",
  defaultFrom: "profile.keywords",
  maxItems: 10,
  maxLength: 60,
};

export const benefitsInput = {
  name: "benefits",
  kind: "bulletPoint",
  label: "Benefits",
  placeholder: "What the customer gets, one per line",
  maxItems: 6,
  maxLength: 120,
  rules: [{ strength: "Should", check: "minItems", value: 2, message: "Two or three benefits make the copy concrete" }],
};

export const featuresInput = {
  name: "features",
  kind: "bulletPoint",
  label: "Features",
  placeholder: "What it has or includes, one per line",
  maxItems: 8,
  maxLength: 120,
};

export const painPointsInput = {
  name: "painPoints",
  kind: "bulletPoint",
  label: "Problems it solves",
  placeholder: "What bothers your customers, one per line",
  maxItems: 5,
  maxLength: 120,
};

export const offerInput = {
  name: "offer",
  kind: "text",
  label: "Offer (optional)",
  placeholder: "e.g. 15% off your first order",
  maxLength: 60,
};

export const ctaInput = {
  name: "cta",
  kind: "select",
  label: "Call to action",
  required: true,
  default: "learnMore",
  options: [
    { label: "Learn more", value: "learnMore" },
    { label: "Shop now", value: "shopNow" },
    { label: "Book now", value: "bookNow" },
    { label: "Sign up", value: "signUp" },
    { label: "Get in touch", value: "contactUs" },
    { label: "Get a quote", value: "getQuote" },
    { label: "Claim the offer", value: "getOffer" },
    { label: "Call us today", value: "call" },
  ],
};

export const urlInput = {
  name: "url",
  kind: "url",
  label: "Link",
  placeholder: "https://…",
  defaultFrom: "profile.websiteUrl",
  format: "Url",
  maxLength: 300,
};

export const toneInput = {
  name: "tone",
  kind: "radioSelect",
  label: "Tone",
  required: true,
  default: "friendly",
  options: [
    { label: "Friendly", value: "friendly" },
    { label: "Professional", value: "professional" },
    { label: "Playful", value: "playful" },
    { label: "Bold", value: "bold" },
  ],
};

export const styleInput = {
  name: "style",
  kind: "radioSelect",
  label: "Style",
  required: true,
  default: "modern",
  options: [
    { label: "Modern", value: "modern" },
    { label: "Classic", value: "classic" },
    { label: "Friendly", value: "friendly" },
    { label: "Bold", value: "bold" },
    { label: "Elegant", value: "elegant" },
  ],
};

/** The first lines of every marketing prompt: who the business is. */
export const businessLines = [
  "Business: {{profile.name}}",
  "About the business: {{profile.description}}",
  "Website: {{profile.websiteUrl}}",
];

export const copywriterSystem = [
  "You are an experienced marketing copywriter for small businesses.",
  "You write specific, honest copy in plain words from the facts you are given; you never invent prices, awards, numbers or testimonials.",
];
