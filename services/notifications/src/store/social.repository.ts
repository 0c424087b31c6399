import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { Channel, TikTokPostOptions } from "../domain/social-channels";
import type { AttemptRecord } from "../domain/social-publishing";

/**
 * A social post to publish: a craft's text and image, the channels it goes to, when. Its `_id` is
 * its calendar entry's (one post per craft per user), or the automation run's step for a post an
 * automation publishes. `open` (some channel not settled yet) is what the sweep looks posts up by,
 * by equality (FerretDB pushes that down). The post's own fields change only before any attempt.
 */
export interface SocialPostDoc {
  _id: string;
  userId: string;
  projectId: string;
  craftId: string;
  /** The calendar entry it sits on ("" for an automation's post). */
  entryId: string;
  /** The automation whose step made it ("" for a post from the calendar). */
  automationId?: string;
  title: string;
  text: string;
  imageAssetId: string;
  channels: Channel[];
  publishAt: Date;
  open: boolean;
  /** What the user chose for its TikTok channel. */
  tiktok?: TikTokPostOptions;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The attempt log, append-only, each record's `_id` its unique key: `start` claims attempt n on a
 * channel (`<post>|<channel>|<n>|start`: of concurrent claims one wins, and that process tries it), `ref` keeps a remote id as soon as the provider names it,
 * `outcome` is the attempt's end (its `_id` makes the first one win), `retry` is the user's Retry
 * after a failure. Nothing is ever updated.
 */
interface AttemptDoc {
  _id: string;
  postId: string;
  channel: string;
  attempt: number;
  event: "start" | "ref" | "outcome" | "retry";
  at: Date;
  ref?: string;
  state?: "published" | "failed";
  remotePostId?: string;
  permalink?: string;
  reason?: string;
  retryable?: boolean;
}

/** The channels a project publishes to (chosen in Settings › Integrations). */
interface ChoiceDoc {
  _id: string;
  userId: string;
  channels: Channel[];
  updatedAt: Date;
}

const channelSchema = new Schema<Channel>(
  { kind: { type: String, required: true }, remoteId: { type: String, required: true }, name: String },
  { _id: false },
);

const postSchema = new Schema<SocialPostDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    craftId: { type: String, default: "" },
    entryId: { type: String, default: "" },
    automationId: { type: String, default: "" },
    title: { type: String, default: "" },
    text: { type: String, default: "" },
    imageAssetId: { type: String, default: "" },
    channels: { type: [channelSchema], default: [] },
    publishAt: { type: Date, required: true },
    open: { type: Boolean, default: true },
    tiktok: {
      type: new Schema<TikTokPostOptions>(
        {
          privacyLevel: { type: String, required: true },
          disableComment: { type: Boolean, default: false },
          disableDuet: { type: Boolean, default: false },
          disableStitch: { type: Boolean, default: false },
        },
        { _id: false },
      ),
      default: undefined,
    },
  },
  { collection: "social_posts", timestamps: true, versionKey: false },
);
postSchema.index({ open: 1 });

const attemptSchema = new Schema<AttemptDoc>(
  {
    _id: { type: String, required: true },
    postId: { type: String, required: true },
    channel: { type: String, required: true },
    attempt: { type: Number, required: true },
    event: { type: String, required: true },
    at: { type: Date, required: true },
    ref: String,
    state: String,
    remotePostId: String,
    permalink: String,
    reason: String,
    retryable: Boolean,
  },
  { collection: "social_attempts", versionKey: false },
);
attemptSchema.index({ postId: 1 });

const choiceSchema = new Schema<ChoiceDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    channels: { type: [channelSchema], default: [] },
    updatedAt: { type: Date, required: true },
  },
  { collection: "social_channel_choices", versionKey: false },
);

export type NewPost = Omit<SocialPostDoc, "createdAt" | "updatedAt">;

export class SocialRepository {
  constructor(
    readonly posts: Model<SocialPostDoc>,
    private readonly attempts: Model<AttemptDoc>,
    private readonly choices: Model<ChoiceDoc>,
  ) {}

  /** Inserts the post, or replaces its fields when one with this `_id` exists. */
  async putPost(post: NewPost): Promise<SocialPostDoc> {
    const { _id, ...fields } = post;
    if (!(await insertOnce(this.posts, post))) await this.posts.updateOne({ _id }, { $set: fields });
    return (await this.posts.findById(_id).lean<SocialPostDoc>())!;
  }

  /**
   * Inserts the post unless one with its `_id` exists, which then stays as it is (an automation
   * step run again). @returns the post kept and whether this call made it.
   */
  async createPost(post: NewPost): Promise<{ post: SocialPostDoc; created: boolean }> {
    const created = await insertOnce(this.posts, post);
    return { post: (await this.posts.findById(post._id).lean<SocialPostDoc>())!, created };
  }

  post(id: string): Promise<SocialPostDoc | null> {
    return this.posts.findById(id).lean<SocialPostDoc>();
  }

  /** Posts by id (a calendar page's entries), each read by `_id`. */
  async postsByIds(ids: readonly string[]): Promise<SocialPostDoc[]> {
    const found = await Promise.all(ids.map((id) => this.post(id)));
    return found.filter((post): post is SocialPostDoc => post !== null);
  }

  async setPost(id: string, fields: Partial<Pick<SocialPostDoc, "publishAt" | "open" | "channels">>): Promise<void> {
    await this.posts.updateOne({ _id: id }, { $set: fields });
  }

  async removePost(id: string): Promise<void> {
    await this.posts.deleteOne({ _id: id });
  }

  /** Posts with a channel not settled yet (at most `limit`). */
  openPosts(limit: number): Promise<SocialPostDoc[]> {
    return this.posts.find({ open: true }).limit(limit).lean<SocialPostDoc[]>();
  }

  /** Every attempt of a post, by channel id. */
  async attemptsOf(postId: string): Promise<Map<string, AttemptRecord[]>> {
    const docs = await this.attempts.find({ postId }).lean<AttemptDoc[]>();
    return foldAttempts(docs);
  }

  /** The attempts of several posts (a calendar page), by post then channel. */
  async attemptsOfPosts(postIds: readonly string[]): Promise<Map<string, Map<string, AttemptRecord[]>>> {
    // One equality read per post (FerretDB pushes equality down, not `$in`).
    const each = await Promise.all(postIds.map(async (postId) => [postId, await this.attemptsOf(postId)] as const));
    return new Map(each);
  }

  /** Claims attempt `attempt` on a channel. @returns false when another process claimed it. */
  start(postId: string, channel: string, attempt: number, at: Date): Promise<boolean> {
    return insertOnce(this.attempts, {
      _id: `${postId}|${channel}|${attempt}|start`,
      postId,
      channel,
      attempt,
      event: "start",
      at,
    });
  }

  /** Keeps a remote ref of an attempt (idempotent). */
  async ref(postId: string, channel: string, attempt: number, ref: string, at: Date): Promise<void> {
    await insertOnce(this.attempts, {
      _id: `${postId}|${channel}|${attempt}|ref|${ref}`,
      postId,
      channel,
      attempt,
      event: "ref",
      at,
      ref,
    });
  }

  /** Records an attempt's outcome. @returns false when it already had one (the first one stands). */
  outcome(
    postId: string,
    channel: string,
    attempt: number,
    outcome: NonNullable<AttemptRecord["outcome"]>,
  ): Promise<boolean> {
    return insertOnce(this.attempts, {
      _id: `${postId}|${channel}|${attempt}|outcome`,
      postId,
      channel,
      attempt,
      event: "outcome",
      ...outcome,
    });
  }

  /** The user's Retry after attempt `attempt` failed (idempotent). */
  retry(postId: string, channel: string, attempt: number, at: Date): Promise<boolean> {
    return insertOnce(this.attempts, {
      _id: `${postId}|${channel}|${attempt}|retry`,
      postId,
      channel,
      attempt,
      event: "retry",
      at,
    });
  }

  /** The channels chosen for a project ([] when none yet). */
  async chosen(projectId: string): Promise<Channel[]> {
    return (await this.choices.findById(projectId).lean<ChoiceDoc>())?.channels ?? [];
  }

  async choose(projectId: string, userId: string, channels: Channel[], at: Date): Promise<void> {
    if (!(await insertOnce(this.choices, { _id: projectId, userId, channels, updatedAt: at })))
      await this.choices.updateOne({ _id: projectId }, { $set: { channels, userId, updatedAt: at } });
  }
}

/** Attempt records by channel, from the log's events. */
function foldAttempts(docs: readonly AttemptDoc[]): Map<string, AttemptRecord[]> {
  const byChannel = new Map<string, Map<number, AttemptRecord>>();
  const ordered = [...docs].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const doc of ordered) {
    const attempts = byChannel.get(doc.channel) ?? new Map<number, AttemptRecord>();
    byChannel.set(doc.channel, attempts);
    const record = attempts.get(doc.attempt) ?? { attempt: doc.attempt, startedAt: doc.at, refs: [], retried: false };
    attempts.set(doc.attempt, record);
    if (doc.event === "start") record.startedAt = doc.at;
    else if (doc.event === "ref" && doc.ref) record.refs.push(doc.ref);
    else if (doc.event === "retry") record.retried = true;
    else if (doc.event === "outcome")
      record.outcome =
        doc.state === "published"
          ? { at: doc.at, state: "published", remotePostId: doc.remotePostId ?? "", permalink: doc.permalink ?? "" }
          : { at: doc.at, state: "failed", reason: doc.reason ?? "", retryable: doc.retryable === true };
  }
  return new Map([...byChannel].map(([channel, attempts]) => [channel, [...attempts.values()]]));
}

export async function createSocialRepository(connection: Connection): Promise<SocialRepository> {
  const posts = modelOn<SocialPostDoc>(connection, "SocialPost", postSchema);
  const attempts = modelOn<AttemptDoc>(connection, "SocialAttempt", attemptSchema);
  const choices = modelOn<ChoiceDoc>(connection, "SocialChannelChoice", choiceSchema);
  await Promise.all([posts.init(), attempts.init(), choices.init()]);
  return new SocialRepository(posts, attempts, choices);
}
