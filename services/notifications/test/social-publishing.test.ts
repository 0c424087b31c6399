import { describe, expect, it } from "@jest/globals";
import {
  type AttemptRecord,
  CLOCK_SKEW_MS,
  channelIdOf,
  channelView,
  contentProblem,
  nextStep,
  type PublishRules,
  parseChannelId,
  postOfCraft,
  postStatus,
  refProvesPost,
  retryDelayMs,
} from "../src/domain/social-publishing";

// The once-per-channel rules: what happens next on a channel from its attempt records, whatever
// crashed or failed before, and how its state reads.

const rules: PublishRules = { maxAttempts: 3, retryBaseMs: 1000, leaseMs: 60_000 };
const t0 = new Date("2026-11-28T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

const started = (attempt: number, ms: number, more: Partial<AttemptRecord> = {}): AttemptRecord => ({
  attempt,
  startedAt: at(ms),
  refs: [],
  retried: false,
  ...more,
});
const failed = (attempt: number, ms: number, retryable: boolean, more: Partial<AttemptRecord> = {}) =>
  started(attempt, ms, {
    outcome: { at: at(ms + 500), state: "failed", reason: "(#368) Blocked for now", retryable },
    ...more,
  });
const published = (attempt: number, ms: number) =>
  started(attempt, ms, {
    outcome: {
      at: at(ms + 500),
      state: "published",
      remotePostId: "1_2",
      permalink: "https://www.facebook.com/1/posts/2",
    },
  });

describe("the next step on a channel", () => {
  it("starts attempt 1 when nothing was tried", () => {
    expect(nextStep([], t0, rules)).toEqual({ do: "start", attempt: 1 });
  });

  it("is done once any attempt published, even if a later record says otherwise", () => {
    expect(nextStep([published(1, 0)], at(10), rules)).toEqual({ do: "done" });
    expect(nextStep([published(1, 0), started(2, 100)], at(10_000_000), rules)).toEqual({ do: "done" });
  });

  it("waits while an attempt without outcome is within its lease: its process may still be publishing", () => {
    expect(nextStep([started(1, 0)], at(59_999), rules)).toEqual({ do: "wait", at: at(60_000) });
  });

  it("recovers an attempt cut short after its lease, looking back from before it began, never starting another first", () => {
    const step = nextStep([started(1, 0, { refs: ["container:9", "media:7"] })], at(60_000), rules);
    expect(step).toEqual({ do: "recover", attempt: 1, refs: ["container:9", "media:7"], since: at(-CLOCK_SKEW_MS) });
  });

  it("tries again after a retryable failure, after a growing wait, up to the limit", () => {
    expect(retryDelayMs(rules, 1)).toBe(1000);
    expect(retryDelayMs(rules, 2)).toBe(4000);
    expect(nextStep([failed(1, 0, true)], at(1000), rules)).toEqual({ do: "wait", at: at(1500) });
    expect(nextStep([failed(1, 0, true)], at(1500), rules)).toEqual({ do: "start", attempt: 2 });
    expect(nextStep([failed(1, 0, true), failed(2, 2000, true), failed(3, 9000, true)], at(1e9), rules)).toEqual({
      do: "done",
    });
  });

  it("stops at a refusal until the user retries, then starts the next attempt", () => {
    expect(nextStep([failed(1, 0, false)], at(1e9), rules)).toEqual({ do: "done" });
    expect(nextStep([failed(1, 0, false, { retried: true })], at(1e9), rules)).toEqual({ do: "start", attempt: 2 });
    // The user's Retry after the automatic tries ran out starts a fourth.
    expect(
      nextStep([failed(1, 0, true), failed(2, 2000, true), failed(3, 9000, true, { retried: true })], at(1e9), rules),
    ).toEqual({ do: "start", attempt: 4 });
  });

  it("reads attempts in any order", () => {
    expect(nextStep([started(2, 5000), failed(1, 0, true)], at(6000), rules)).toEqual({ do: "wait", at: at(65_000) });
  });
});

describe("a channel's state", () => {
  it("is scheduled, publishing, published with its link, or failed with the reason", () => {
    expect(channelView([], rules).state).toBe("scheduled");
    expect(channelView([started(1, 0)], rules).state).toBe("publishing");
    // A retryable failure with tries left is still being published.
    expect(channelView([failed(1, 0, true)], rules).state).toBe("publishing");
    expect(channelView([published(1, 0)], rules)).toMatchObject({
      state: "published",
      permalink: "https://www.facebook.com/1/posts/2",
    });
    expect(channelView([failed(1, 0, false)], rules)).toMatchObject({
      state: "failed",
      reason: "(#368) Blocked for now",
    });
    expect(channelView([failed(1, 0, false, { retried: true })], rules).state).toBe("publishing");
  });

  it("makes the calendar status of a post from its channels", () => {
    expect(postStatus(["published", "published"])).toBe("published");
    expect(postStatus(["published", "failed"])).toBe("failed");
    expect(postStatus(["published", "publishing"])).toBe("sending");
    expect(postStatus(["scheduled", "scheduled"])).toBe("scheduled");
  });

  it("takes only refs that name a live post as proof", () => {
    expect(refProvesPost("post:1_2")).toBe(true);
    expect(refProvesPost("media:17")).toBe(true);
    expect(refProvesPost("container:17")).toBe(false);
  });
});

describe("a post from its craft", () => {
  it("takes the brief's selected text and the image step's selected asset, else the latest", () => {
    const steps = [
      {
        name: "brief",
        results: [
          { content: "First draft", format: "text" },
          { content: " Chosen draft ", format: "text", selected: true },
          { content: "Last draft", format: "text" },
        ],
      },
      { name: "imageIdeas", results: [{ content: "## Prompts\n- a bike", format: "text" }] },
      {
        name: "image",
        results: [
          { content: "a", format: "data", data: { asset: { id: "asset-1", type: "image" } } },
          { content: "b", format: "data", data: { asset: { id: "asset-2", type: "image" } } },
        ],
      },
    ];
    expect(postOfCraft(steps)).toEqual({ text: "Chosen draft", imageAssetId: "asset-2" });
    expect(postOfCraft([])).toEqual({ text: "", imageAssetId: "" });
  });

  it("refuses a post without text, and Instagram without an image or over its caption limit", () => {
    expect(contentProblem({ text: "", imageAssetId: "a" }, ["facebook_page"])).toMatch(/no text/);
    expect(contentProblem({ text: "Hi", imageAssetId: "" }, ["facebook_page"])).toBeNull();
    expect(contentProblem({ text: "Hi", imageAssetId: "" }, ["facebook_page", "instagram"])).toMatch(/need an image/);
    expect(contentProblem({ text: "x".repeat(2201), imageAssetId: "a" }, ["instagram"])).toMatch(/2,200/);
  });

  it("names channels by kind and remote id, and refuses anything else", () => {
    expect(channelIdOf({ kind: "instagram", remoteId: "1784" })).toBe("instagram:1784");
    expect(parseChannelId("facebook_page:101")).toEqual({ kind: "facebook_page", remoteId: "101" });
    expect(parseChannelId("twitter:1")).toBeNull();
    expect(parseChannelId("instagram:../x y")).toBeNull();
  });
});
