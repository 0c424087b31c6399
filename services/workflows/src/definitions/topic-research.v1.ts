import { audienceInput, painPointsInput } from "./common";

// TopicResearch, version 1: the questions people ask about your topics, grouped into pillars.
export const topicResearchV1 = {
  name: "TopicResearch",
  version: 1,
  title: "Topic research",
  description: "Find the questions your audience asks and group them into content pillars.",
  category: "research",
  new: false,
  standalone: true,
  steps: [
    {
      name: "seeds",
      title: "Your topics",
      kind: "FormStep",
      inputs: [
        {
          name: "seedTopics",
          kind: "chipText",
          label: "Topics",
          placeholder: "e.g. rye bread, starter care",
          required: true,
          defaultFrom: "profile.keywords",
          maxItems: 5,
          maxLength: 60,
          rules: [{ strength: "Must", check: "minItems", value: 1, message: "Add at least one topic" }],
        },
        { ...audienceInput, required: true },
        { ...painPointsInput, label: "Questions you hear from customers" },
      ],
      action: {
        kind: "TextGenerator",
        label: "Find topics",
        resultMode: "AppendResults",
        resultViewTrigger: "AfterOpen",
        maxResults: 5,
        prompt: {
          system: [
            "You are a content strategist. You turn topics into the questions real people search for and group them into pillars.",
          ],
          template: [
            "Business: {{profile.name}} — {{profile.description}}",
            "Topics: {{values.seedTopics}}",
            "Audience: {{values.audience}}",
            "Questions customers ask:",
            "{{values.painPoints}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Topics",
            "- 8 to 10 post titles phrased as the question or need",
            "## Pillars",
            "- one pillar page per topic",
            "## Angles",
            "- 4 angles that make the business's posts different",
          ],
          maxOutputTokens: 700,
        },
        output: {
          format: "list",
          sections: [
            { key: "topics", heading: "Topics" },
            { key: "pillars", heading: "Pillars" },
            { key: "angles", heading: "Angles" },
          ],
        },
        offline: { composer: "topicIdeas", framework: "TopicClusters" },
      },
      viewer: "multi select list",
    },
    { name: "topics", title: "Your topics", kind: "FormStep", viewer: "multi select list", resultsFrom: "seeds" },
  ],
};
