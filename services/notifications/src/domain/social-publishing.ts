// Pure rules of social publishing: a post's content from its craft, channel ids, each channel's
// state folded from its append-only attempt records, and what to do next on a channel so that a
// post is published once per channel whatever crashes or retries happen.
import { CHANNEL_KINDS, type Channel, type ChannelKind, type PublishOutcome } from "./social-channels";

/** A channel's state as the calendar shows it. */
export const CHANNEL_STATES = ["scheduled", "publishing", "published", "failed"] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

/** `<kind>:<remote id>`: a channel's id in the API and in attempt records. */
export function channelIdOf(channel: Pick<Channel, "kind" | "remoteId">): string {
  return `${channel.kind}:${channel.remoteId}`;
}

/** The kind and remote id of a channel id, or null when it is not one. */
export function parseChannelId(id: string): { kind: ChannelKind; remoteId: string } | null {
  const at = id.indexOf(":");
  if (at < 0 || id.length > 200) return null;
  const kind = id.slice(0, at);
  const remoteId = id.slice(at + 1);
  if (!(CHANNEL_KINDS as readonly string[]).includes(kind) || !/^[A-Za-z0-9_.-]{1,120}$/.test(remoteId)) return null;
  return { kind: kind as ChannelKind, remoteId };
}

/** One attempt on a channel as its records tell it. */
export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  /** Remote refs named by the provider, in order (`post:…`, `container:…`, `media:…`). */
  refs: string[];
  /** The attempt's outcome once recorded (first one wins). */
  outcome?: { at: Date } & (
    | { state: "published"; remotePostId: string; permalink: string }
    | { state: "failed"; reason: string; retryable: boolean }
  );
  /** The user asked to try again after this attempt failed. */
  retried: boolean;
}

/** A channel's state for a user. */
export interface ChannelView {
  state: ChannelState;
  attempts: number;
  permalink: string;
  remotePostId: string;
  reason: string;
}

/** The rules' settings: automatic tries per channel, first wait between them, an attempt's lease. */
export interface PublishRules {
  maxAttempts: number;
  retryBaseMs: number;
  /** An attempt with no outcome after this long was cut short (its process died). */
  leaseMs: number;
}

/** How long after failed attempt `n` (1-based) the next automatic one waits: base × 4^(n-1). */
export function retryDelayMs(rules: PublishRules, attempt: number): number {
  return rules.retryBaseMs * 4 ** Math.max(0, attempt - 1);
}

const last = (attempts: readonly AttemptRecord[]) =>
  attempts.reduce<AttemptRecord | undefined>((top, a) => (!top || a.attempt > top.attempt ? a : top), undefined);

/** Whether an automatic try follows a failed attempt. */
function autoRetries(rules: PublishRules, attempt: AttemptRecord): boolean {
  return attempt.outcome?.state === "failed" && attempt.outcome.retryable && attempt.attempt < rules.maxAttempts;
}

/** The channel's state from its attempts (any order). */
export function channelView(attempts: readonly AttemptRecord[], rules: PublishRules): ChannelView {
  const top = last(attempts);
  const published = attempts.find((a) => a.outcome?.state === "published");
  if (published?.outcome?.state === "published")
    return {
      state: "published",
      attempts: attempts.length,
      permalink: published.outcome.permalink,
      remotePostId: published.outcome.remotePostId,
      reason: "",
    };
  if (!top) return { state: "scheduled", attempts: 0, permalink: "", remotePostId: "", reason: "" };
  const outcome = top.outcome;
  if (outcome?.state === "failed" && !top.retried && !autoRetries(rules, top))
    return { state: "failed", attempts: attempts.length, permalink: "", remotePostId: "", reason: outcome.reason };
  return { state: "publishing", attempts: attempts.length, permalink: "", remotePostId: "", reason: "" };
}

/**
 * What to do next on a channel whose post is due:
 * - `start`: claim attempt `attempt` (its record's unique key makes one process the one that tries);
 * - `recover`: attempt `attempt` started but has no outcome and its lease passed (its process died,
 *   or the provider never answered): ask the provider by its refs, then look for the post among the
 *   channel's posts since `since`, before anything is tried again;
 * - `wait`: nothing before `at` (an attempt still running, or the wait before an automatic try);
 * - `done`: published, or failed until the user asks to try again.
 */
export type NextStep =
  | { do: "start"; attempt: number }
  | { do: "recover"; attempt: number; refs: string[]; since: Date }
  | { do: "wait"; at: Date }
  | { do: "done" };

/** How far before an attempt's start its post may be dated by the provider (clocks differ). */
export const CLOCK_SKEW_MS = 120_000;

export function nextStep(attempts: readonly AttemptRecord[], now: Date, rules: PublishRules): NextStep {
  if (attempts.some((a) => a.outcome?.state === "published")) return { do: "done" };
  const top = last(attempts);
  if (!top) return { do: "start", attempt: 1 };
  if (!top.outcome) {
    const expires = top.startedAt.getTime() + rules.leaseMs;
    if (now.getTime() < expires) return { do: "wait", at: new Date(expires) };
    return {
      do: "recover",
      attempt: top.attempt,
      refs: top.refs,
      since: new Date(top.startedAt.getTime() - CLOCK_SKEW_MS),
    };
  }
  if (top.retried) return { do: "start", attempt: top.attempt + 1 };
  if (!autoRetries(rules, top)) return { do: "done" };
  const at = top.outcome.at.getTime() + retryDelayMs(rules, top.attempt);
  return now.getTime() < at ? { do: "wait", at: new Date(at) } : { do: "start", attempt: top.attempt + 1 };
}

/** The outcome a refs-only check proves: a ref naming a live post is published (a container is not). */
export function refProvesPost(ref: string): boolean {
  return ref.startsWith("post:") || ref.startsWith("media:") || ref.startsWith("publish:");
}

/** An adapter's outcome as a record to keep (processing is not an outcome: it stays unknown). */
export function outcomeRecord(outcome: PublishOutcome, at: Date): AttemptRecord["outcome"] | null {
  if (outcome.state === "published")
    return { at, state: "published", remotePostId: outcome.remotePostId, permalink: outcome.permalink ?? "" };
  if (outcome.state === "failed") return { at, state: "failed", reason: outcome.reason, retryable: outcome.retryable };
  return null;
}

/** The calendar status of a social post from its channels' states. */
export function postStatus(states: readonly ChannelState[]): "scheduled" | "sending" | "published" | "failed" {
  if (states.length === 0) return "scheduled";
  if (states.every((s) => s === "published")) return "published";
  if (states.some((s) => s === "publishing")) return "sending";
  if (states.some((s) => s === "failed")) return "failed";
  return states.some((s) => s === "published") ? "sending" : "scheduled";
}

/** Whether every channel is settled (published, or failed until the user retries). */
export function settled(states: readonly ChannelState[]): boolean {
  return states.every((s) => s === "published" || s === "failed");
}

/** A craft step as the workflows service answers it (results with their format and selection). */
export interface CraftStepData {
  name?: string;
  results?: Array<{ content?: unknown; format?: string; selected?: boolean; data?: unknown }>;
}

/**
 * The post a SocialMediaPostWriter craft makes: the text of its "brief" step (the selected result,
 * else the latest) and the image of its "image" step (the selected ImageAppender result, else the
 * latest): `{ text: "", imageAssetId: "" }` parts when missing.
 */
export function postOfCraft(steps: readonly CraftStepData[]): { text: string; imageAssetId: string } {
  const chosen = (
    step: CraftStepData | undefined,
    ok: (r: NonNullable<CraftStepData["results"]>[number]) => boolean,
  ) => {
    const results = (step?.results ?? []).filter(ok);
    return results.find((r) => r.selected) ?? results[results.length - 1];
  };
  const byName = (name: string) => steps.find((s) => s.name === name);
  const textResult = chosen(
    byName("brief") ?? byName("post"),
    (r) => r.format !== "data" && typeof r.content === "string" && r.content.trim() !== "",
  );
  const imageResult = chosen(byName("image"), (r) => {
    const asset = (r.data as { asset?: { id?: unknown; type?: unknown } } | undefined)?.asset;
    return typeof asset?.id === "string" && asset.id !== "" && (asset.type === undefined || asset.type === "image");
  });
  const asset = (imageResult?.data as { asset?: { id?: string } } | undefined)?.asset;
  return {
    text: typeof textResult?.content === "string" ? textResult.content.trim() : "",
    imageAssetId: asset?.id ?? "",
  };
}

/**
 * Why a post cannot go to these channels, or null: it needs text (within the channel's limit), and
 * Instagram and TikTok need an image.
 */
export function contentProblem(
  post: { text: string; imageAssetId: string },
  kinds: readonly ChannelKind[],
): string | null {
  if (!post.text) return "The post has no text yet: write it first.";
  if (kinds.includes("instagram") && post.text.length > 2200) return "Instagram captions are at most 2,200 characters.";
  if (kinds.includes("facebook_page") && post.text.length > 63_206)
    return "Facebook posts are at most 63,206 characters.";
  if (!post.imageAssetId && kinds.some((k) => k === "instagram" || k === "tiktok"))
    return "Instagram and TikTok posts need an image: add one in the craft's Image step.";
  return null;
}

/** The in-app notification of a channel's end: published (with its link) or failed (with the reason). */
export function channelNotice(
  title: string,
  channelName: string,
  view: ChannelView,
): { level: "info" | "error"; title: string; body: string } {
  const what = title || "Your post";
  if (view.state === "published")
    return { level: "info", title: `Published on ${channelName}`, body: `${what} is live on ${channelName}.` };
  return {
    level: "error",
    title: `Not published on ${channelName}`,
    body: `${what} could not be published on ${channelName}: ${view.reason} Open the calendar to try again.`,
  };
}
