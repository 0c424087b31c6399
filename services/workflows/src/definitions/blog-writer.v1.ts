// BlogWriter, version 1: data, validated by @crafter/workflow-language when the service starts.
export const blogWriterV1 = {
  name: "BlogWriter",
  version: 1,
  title: "Blog post",
  description: "From a topic and keywords to title ideas, an outline and a full draft.",
  category: "content",
  new: false,
  steps: [
    {
      name: "topic",
      title: "Topic and keywords",
      description: "What the post is about and who it is for.",
      kind: "FormStep",
      inputs: [
        {
          name: "topic",
          kind: "text",
          label: "Topic",
          placeholder: "e.g. How to keep a sourdough starter alive",
          required: true,
          maxLength: 150,
          rules: [
            {
              strength: "Must",
              check: "minLength",
              value: 3,
              message: "Topic must be at least 3 characters",
            },
          ],
        },
        {
          name: "keywords",
          kind: "chipText",
          label: "Keywords",
          placeholder: "Add a keyword and press Enter",
          defaultFrom: "profile.keywords",
          maxItems: 10,
          maxLength: 60,
          rules: [
            {
              strength: "Should",
              check: "minItems",
              value: 1,
              message: "Add a keyword or two so the post can be found",
            },
          ],
        },
        {
          name: "audience",
          kind: "text",
          label: "Audience",
          placeholder: "Who will read it? e.g. home bakers",
          defaultFrom: "profile.audience",
          maxLength: 120,
        },
        {
          name: "tone",
          kind: "select",
          label: "Tone",
          required: true,
          default: "friendly",
          options: [
            {
              label: "Friendly",
              value: "friendly",
            },
            {
              label: "Professional",
              value: "professional",
            },
            {
              label: "Playful",
              value: "playful",
            },
            {
              label: "Bold",
              value: "bold",
            },
          ],
        },
      ],
      action: {
        kind: "TextGenerator",
        label: "Write outline",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You are an experienced content strategist and SEO copywriter for small businesses.",
            "You plan blog posts that answer a real question for a specific audience, in plain words.",
          ],
          template: [
            "Plan a blog post.",
            "Business: {{profile.name}}",
            "About the business: {{profile.description}}",
            "Topic: {{values.topic}}",
            "Keywords to target: {{values.keywords}}",
            "Audience: {{values.audience}}",
            "Tone: {{values.tone}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Title ideas",
            "- five title ideas, each under 70 characters, using the main keyword naturally",
            "## Outline",
            "- five to seven section headings in reading order, each a short phrase",
          ],
          maxOutputTokens: 800,
          temperature: 0.7,
        },
        output: {
          format: "list",
          sections: [
            {
              key: "titles",
              heading: "Title ideas",
            },
            {
              key: "outline",
              heading: "Outline",
              minItems: 2,
            },
          ],
        },
        offline: {
          composer: "blogPlan",
          framework: "AIDA",
        },
      },
      viewer: "bullet list",
    },
    {
      name: "outline",
      title: "Title and outline",
      description: "Pick a title, shape the outline and choose a length.",
      kind: "FormStep",
      inputs: [
        {
          name: "title",
          kind: "text",
          label: "Title",
          required: true,
          defaultFrom: "steps.topic.result.titles[0]",
          maxLength: 300,
        },
        {
          name: "outline",
          kind: "bulletPoint",
          label: "Outline",
          placeholder: "One section per line",
          required: true,
          defaultFrom: "steps.topic.result.outline",
          maxItems: 12,
          maxLength: 300,
          rules: [
            {
              strength: "Must",
              check: "minItems",
              value: 2,
              message: "An outline needs at least 2 sections",
            },
          ],
        },
        {
          name: "length",
          kind: "select",
          label: "Length",
          required: true,
          default: "medium",
          options: [
            {
              label: "Short (~600 words)",
              value: "short",
            },
            {
              label: "Medium (~1000 words)",
              value: "medium",
            },
            {
              label: "Long (~1500 words)",
              value: "long",
            },
          ],
        },
      ],
      action: {
        kind: "TextGenerator",
        label: "Write draft",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You are an experienced blog writer for small businesses.",
            "You write clear, useful, skimmable articles that sound like the business, never like a brochure.",
          ],
          template: [
            'Write the full blog post titled "{{values.title}}".',
            "Business: {{profile.name}}",
            "About the business: {{profile.description}}",
            "Website: {{profile.websiteUrl}}",
            "Audience: {{steps.topic.values.audience}}",
            "Tone: {{steps.topic.values.tone}}",
            "Keywords to use naturally: {{steps.topic.values.keywords}}",
            "Length: {{values.length}}",
            "Outline (one section per item, in this order):",
            "{{values.outline}}",
            "",
            "Format: HTML only. Start with an <h1> holding the title, then an introduction in <p>, then each outline item as an <h2> followed by <p> paragraphs (and <ul>/<li> where a list helps), and end with a short conclusion and a call to action that mentions the business. Use <strong> for key phrases. No markdown, no <html>, <head> or <body>, no code fences.",
          ],
          maxOutputTokens: 4000,
          temperature: 0.7,
        },
        output: {
          format: "html",
        },
        offline: {
          composer: "blogDraft",
          framework: "PAS",
          params: {
            lengthWords: {
              short: 600,
              medium: 1000,
              long: 1500,
            },
          },
        },
      },
      viewer: "rich text",
    },
    {
      name: "draft",
      title: "Your draft",
      description: "The finished post, ready to copy, edit or publish.",
      kind: "FormStep",
      inputs: [],
      viewer: "rich text",
      resultsFrom: "outline",
    },
  ],
};
