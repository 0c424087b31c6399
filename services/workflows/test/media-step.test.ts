import { describe, expect, it } from "@jest/globals";
import { imageRequest, scriptSegments, speechScript } from "../src/domain/media-step";
import type { ResultRecord, StepRecord } from "../src/domain/types";
import { profile, registry } from "./fixtures";

const now = new Date("2026-01-01T10:00:00Z");
const podcast = registry.latest("PodcastWriter")!;
const social = registry.latest("SocialMediaPostWriter")!;

function result(content: string, extra: Partial<ResultRecord> = {}): ResultRecord {
  return {
    id: `r${Math.random()}`,
    content,
    format: "text",
    engine: "offline",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
    ...extra,
  };
}

function record(name: string, results: ResultRecord[] = [], values: StepRecord["values"] = {}): StepRecord {
  return { name, state: "Completed", values, defaults: {}, results };
}

describe("the podcast's script as speech", () => {
  it("gives each named speaker their lines, joins a speaker's lines and drops stage directions", () => {
    expect(
      scriptSegments(
        [
          "[Cold open]",
          "MAYA: Welcome to the show.",
          "Today we talk about starters.",
          "**SAM BAKER**: Thanks for having me. [laughs]",
          "SAM BAKER: [answer]",
          "Maya: So, how did you start?",
        ].join("\n"),
      ),
    ).toEqual([
      { speaker: "MAYA", text: "Welcome to the show. Today we talk about starters." },
      { speaker: "SAM BAKER", text: "Thanks for having me." },
      { speaker: "MAYA", text: "So, how did you start?" },
    ]);
  });

  it("treats a sentence with a colon as words, not a speaker, and starts with the host", () => {
    expect(scriptSegments("Here is the thing we keep forgetting: feed it daily.")).toEqual([
      { speaker: "Host", text: "Here is the thing we keep forgetting: feed it daily." },
    ]);
  });

  it("speaks every segment of the script in order, not only the last one", () => {
    const audio = podcast.steps.find((step) => step.name === "audio")!;
    const steps = [
      record("episode", [result("## Segments\n- a\n- b\n- c", { format: "list" })]),
      record("script", [
        result("HOST: Wrap-up.", { itemIndex: 2, item: "c" }),
        result("HOST: Cold open.", { itemIndex: 0, item: "a" }),
        result("HOST: Middle.", { itemIndex: 1, item: "b" }),
      ]),
      record("audio"),
    ];
    expect(scriptSegments(speechScript(podcast, audio, steps))).toEqual([
      { speaker: "HOST", text: "Cold open. Middle. Wrap-up." },
    ]);
  });
});

describe("the image an ImageAppender asks for", () => {
  const image = social.steps.find((step) => step.name === "image")!;
  const steps = (imageResults: ResultRecord[] = []) => [
    record("brief", [result("Fresh loaves every Friday\n\nCome early.")], {
      network: "instagram",
      topic: "Friday bake",
    }),
    record(
      "imageIdeas",
      [
        result("## Prompts\n- A rye loaf on linen\n- Flour in morning light", {
          format: "list",
          sections: { prompts: ["A rye loaf on linen", "Flour in morning light"] },
        }),
      ],
      { primaryColor: "#2a9d8f" },
    ),
    record("image", imageResults),
  ];

  it("takes the written image prompt, the network's size and the brand colour", () => {
    expect(imageRequest(social, image, steps(), profile, "p1")).toEqual({
      prompt: "A rye loaf on linen",
      size: "1080x1080",
      projectId: "p1",
      headline: "Friday bake",
      colors: ["#2a9d8f"],
    });
  });

  it("takes the next prompt for each image already made", () => {
    expect(imageRequest(social, image, steps([result("x")]), profile, "p1").prompt).toBe("Flour in morning light");
  });

  it("takes the action's aspect ratio: FacebookAdsWriter's square ad", () => {
    const ads = registry.latest("FacebookAdsWriter")!;
    const adImage = ads.steps.find((step) => step.name === "image")!;
    const request = imageRequest(
      ads,
      adImage,
      [record("brief", [result("Bake at home")]), record("image")],
      profile,
      "p",
    );
    expect(request.size).toBe("1080x1080");
  });

  it("writes a prompt from the craft when no prompts were written, in the default size", () => {
    const bare = [record("brief", [result("Fresh loaves every Friday")], { topic: "" }), record("image")];
    expect(imageRequest(social, image, bare, profile, "p1")).toMatchObject({
      prompt: "A bright, professional marketing photo for Fresh loaves every Friday",
      size: "1080x1080",
      colors: [],
    });
  });
});
