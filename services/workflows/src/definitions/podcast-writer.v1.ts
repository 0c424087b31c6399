import { audienceInput, ctaInput, keywordsInput, urlInput } from "./common";

// PodcastWriter, version 1: an episode plan (titles and segments), each segment scripted by an
// IteratorStep; the voice recording is an AudioGenerator step of the media issue (coming).
export const podcastWriterV1 = {
  name: "PodcastWriter",
  version: 1,
  title: "Podcast",
  description: "Plan an episode, script it segment by segment, and (soon) turn it into audio.",
  category: "content",
  steps: [
    {
      name: "episode",
      title: "Episode",
      kind: "FormStep",
      inputs: [
        { name: "topic", kind: "text", label: "Episode topic", required: true, maxLength: 150 },
        { ...audienceInput, label: "Listeners" },
        { name: "host", kind: "text", label: "Host name", maxLength: 60 },
        { name: "guest", kind: "text", label: "Guest (optional)", maxLength: 60 },
        { name: "durationMinutes", kind: "slider", label: "Length (minutes)", min: 5, max: 60, step: 5, default: 20 },
        {
          name: "talkingPoints",
          kind: "bulletPoint",
          label: "Talking points",
          maxItems: 8,
          maxLength: 150,
          rules: [
            {
              strength: "Should",
              check: "minItems",
              value: 2,
              message: "Two or more talking points give the episode a shape",
            },
          ],
        },
        keywordsInput,
        { ...ctaInput, label: "Call to action at the end" },
        urlInput,
      ],
      action: {
        kind: "TextGenerator",
        label: "Plan episode",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: [
            "You are a podcast producer. You plan episodes that hook in the first minute and end with one clear call to action.",
          ],
          template: [
            "Show: {{profile.name}} — {{profile.description}}",
            "Topic: {{values.topic}}",
            "Listeners: {{values.audience}}",
            "Host: {{values.host}}",
            "Guest: {{values.guest}}",
            "Length: {{values.durationMinutes}} minutes",
            "Talking points:",
            "{{values.talkingPoints}}",
            "",
            "Reply in exactly this format and nothing else:",
            "## Titles",
            "- 3 episode titles, each 70 characters or fewer",
            "## Segments",
            "- the segments in order, from a cold open to the wrap-up and call to action",
          ],
          maxOutputTokens: 500,
        },
        output: {
          format: "list",
          sections: [
            { key: "titles", heading: "Titles", maxChars: 70 },
            { key: "segments", heading: "Segments", minItems: 3 },
          ],
        },
        offline: { composer: "podcastPlan", framework: "AIDA" },
      },
      viewer: "bullet list",
    },
    {
      name: "script",
      title: "Script",
      description: "Each segment is scripted in turn.",
      kind: "IteratorStep",
      iterator: { over: "steps.episode.result.segments", maxItems: 12 },
      action: {
        kind: "TextGenerator",
        label: "Script segment",
        resultMode: "ReplaceResults",
        resultViewTrigger: "AfterOpen",
        prompt: {
          system: ["You write natural spoken podcast scripts, speaker names in capitals followed by a colon."],
          template: [
            "Show: {{profile.name}}",
            "Episode: {{steps.episode.values.topic}}",
            "Host: {{steps.episode.values.host}}",
            "Guest: {{steps.episode.values.guest}}",
            "Listeners: {{steps.episode.values.audience}}",
            "Call to action: {{steps.episode.values.cta}} {{steps.episode.values.url}}",
            "Segment {{itemIndex}} (from 0): {{item}}",
            "",
            "Write only this segment's script, about {{steps.episode.values.durationMinutes}} minutes divided by the number of segments.",
          ],
          maxOutputTokens: 1200,
        },
        output: { format: "text" },
        offline: { composer: "podcastSegment", framework: "AIDA" },
      },
      viewer: "plain text",
    },
    {
      name: "audio",
      title: "Audio",
      kind: "FormStep",
      action: {
        kind: "AudioGenerator",
        label: "Record with AI voice",
        resultMode: "ReplaceResults",
        resultViewTrigger: "Manual",
      },
      viewer: "audio player",
    },
    { name: "episodeScript", title: "Your script", kind: "FormStep", viewer: "plain text", resultsFrom: "script" },
  ],
};
