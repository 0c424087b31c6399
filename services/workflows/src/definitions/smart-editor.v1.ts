import { audienceInput, businessLines } from "./common";

const editSystem = [
  "You edit the user's text. Keep its meaning, facts and language; add nothing they did not say. Reply with the edited text only.",
];

const command = (name: string, label: string, instruction: string) => ({
  name,
  label,
  prompt: { system: editSystem, template: [instruction, "", "{{params.text}}"], maxOutputTokens: 1500 },
  offline: { composer: "editText", framework: "PlainLanguage", params: { command: name } },
  maxLength: 20000,
});

// SmartEditor, version 1: a first draft from a brief, then an editor whose selection can be
// shortened, expanded, simplified, turned into bullets or summarised, or made friendlier or more formal.
export const smartEditorV1 = {
  name: "SmartEditor",
  version: 1,
  title: "Smart document",
  description: "Draft a document from a brief, then edit it with AI help: shorten, expand, simplify, summarise.",
  category: "content",
  new: true,
  standalone: true,
  steps: [
    {
      name: "brief",
      title: "Brief",
      kind: "FormStep",
      inputs: [
        { name: "title", kind: "text", label: "Title", required: true, maxLength: 150 },
        { name: "topic", kind: "text", label: "What is it about?", required: true, maxLength: 300 },
        {
          name: "purpose",
          kind: "autoComplete",
          label: "Purpose",
          placeholder: "e.g. inform customers",
          options: [
            { label: "Inform customers", value: "inform customers" },
            { label: "Announce a change", value: "announce a change" },
            { label: "Explain a process", value: "explain a process" },
            { label: "Propose an idea", value: "propose an idea" },
          ],
          maxLength: 120,
        },
        audienceInput,
        { name: "keyPoints", kind: "bulletPoint", label: "Key points", maxItems: 12, maxLength: 300 },
      ],
      action: {
        kind: "TextGenerator",
        label: "Write first draft",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: ["You write clear business documents in plain words, for the reader named."],
          template: [
            "Write a first draft.",
            ...businessLines,
            "Title: {{values.title}}",
            "About: {{values.topic}}",
            "Purpose: {{values.purpose}}",
            "Reader: {{values.audience}}",
            "Key points:",
            "{{values.keyPoints}}",
            "",
            "Plain text: the title on the first line, short paragraphs, '- ' bullets where a list helps.",
          ],
          maxOutputTokens: 1500,
        },
        output: { format: "text" },
        offline: { composer: "documentDraft", framework: "AIDA" },
      },
      viewer: "plain text",
    },
    {
      name: "editor",
      title: "Editor",
      description: "Select text and choose a command, or edit freely.",
      kind: "FormStep",
      inputs: [
        {
          name: "document",
          kind: "InlineTextGenerator",
          label: "Document",
          required: true,
          defaultFrom: "steps.brief.result.content",
          maxLength: 20000,
          generator: {
            prompt: {
              system: editSystem,
              template: ["Tidy this text: fix spacing and wordiness, keep everything else.", "", "{{params.text}}"],
            },
            offline: { composer: "editText", framework: "PlainLanguage", params: { command: "simplify" } },
            maxLength: 20000,
          },
        },
      ],
      action: {
        kind: "InlineTextGenerator",
        label: "Edit",
        resultMode: "ReplaceResults",
        resultViewTrigger: "Manual",
        commands: [
          command("shorten", "Shorten", "Make this about half as long, keeping the main point of each paragraph."),
          command("expand", "Expand", "Make this longer by explaining each point more fully, without new facts."),
          command("simplify", "Simplify", "Rewrite this in plain language: short sentences, everyday words."),
          command("bullets", "Bullet points", "Turn this into '- ' bullet points, one idea each."),
          command("summarize", "Summarise", "Summarise this in two or three sentences."),
          command("friendly", "Friendlier", "Make this warmer and more conversational."),
          command("formal", "More formal", "Make this more formal: no contractions or exclamation marks."),
        ],
      },
      viewer: "rich text",
    },
  ],
};
