import { AppError, appError, badRequest, type Caller } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import type { StepPost } from "../domain/automation-model";
import { craftLink, dayOf, typeOfWorkflow } from "../domain/calendar-entries";
import { CHANNEL_PROVIDER, type Channel, type ChannelAdapter, type PostContent } from "../domain/social-channels";
import { TokenUnavailable } from "../domain/social-ports";
import {
  type AttemptRecord,
  type ChannelView,
  channelIdOf,
  channelNotice,
  channelView,
  contentProblem,
  nextStep,
  outcomeRecord,
  parseChannelId,
  postOfCraft,
  postStatus,
  refProvesPost,
  settled,
} from "../domain/social-publishing";
import { creatorOptionsProblems, tiktokOptionsOf } from "../domain/tiktok-options";
import { calendarEntryIdOf } from "../store/calendar.repository";
import type { SocialPostDoc } from "../store/social.repository";
import { notify } from "./inbox";
import { getTikTokCreatorInfo } from "./tiktok-creator";

export type SocialDeps = Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger" | "social" | "email">;

/** A channel as the API lists it. */
export interface SocialChannelView {
  id: string;
  kind: Channel["kind"];
  name: string;
  provider: ChannelAdapter["provider"];
  chosen: boolean;
}

/** A provider's connection as publishing sees it. */
export interface SocialProviderView {
  provider: ChannelAdapter["provider"];
  state: "connected" | "not_connected" | "needs_reconnecting" | "unavailable";
  message: string;
}

/** A channel's state on a post, as the API shows it. */
export interface SocialChannelStateView {
  channelId: string;
  kind: Channel["kind"];
  name: string;
  state: ChannelView["state"];
  permalink: string;
  reason: string;
  attempts: number;
}

/** A post as the API shows it. */
export interface SocialPostView {
  id: string;
  craftId: string;
  title: string;
  text: string;
  imageAssetId: string;
  publishAt: Date;
  entryId: string;
  channels: SocialChannelStateView[];
}

function projectOf(projectId: string): string {
  if (!projectId || projectId.length > 64) throw badRequest({ projectId: "projectId is required" });
  return projectId;
}

/** Each channel's state on a post, from its attempts. */
export function channelStates(
  deps: Pick<SocialDeps, "social">,
  post: Pick<SocialPostDoc, "channels">,
  attempts: ReadonlyMap<string, AttemptRecord[]>,
): SocialChannelStateView[] {
  return post.channels.map((channel) => {
    const id = channelIdOf(channel);
    const view = channelView(attempts.get(id) ?? [], deps.social.rules);
    return {
      channelId: id,
      kind: channel.kind,
      name: channel.name,
      state: view.state,
      permalink: view.permalink,
      reason: view.reason,
      attempts: view.attempts,
    };
  });
}

function postView(
  deps: Pick<SocialDeps, "social">,
  post: SocialPostDoc,
  attempts: ReadonlyMap<string, AttemptRecord[]>,
): SocialPostView {
  return {
    id: post._id,
    craftId: post.craftId,
    title: post.title,
    text: post.text,
    imageAssetId: post.imageAssetId,
    publishAt: post.publishAt,
    entryId: post.entryId,
    channels: channelStates(deps, post, attempts),
  };
}

/**
 * The channels every connected provider offers the project, each marked when chosen, and each
 * provider's state (not connected, needs reconnecting…). A provider that cannot be asked lists
 * its chosen channels only.
 * @throws CR_ERR_BAD_REQUEST without a project.
 */
export async function listSocialChannels(
  deps: SocialDeps,
  _caller: Caller,
  input: { projectId: string },
): Promise<{ channels: SocialChannelView[]; providers: SocialProviderView[] }> {
  return offeredChannels(deps, projectOf(input.projectId));
}

async function offeredChannels(
  deps: SocialDeps,
  projectId: string,
): Promise<{ channels: SocialChannelView[]; providers: SocialProviderView[] }> {
  const chosen = await deps.stores.social.chosen(projectId);
  const chosenIds = new Set(chosen.map(channelIdOf));
  const channels: SocialChannelView[] = [];
  const providers: SocialProviderView[] = [];
  for (const [provider, adapter] of deps.social.adapters) {
    let offered: Channel[];
    try {
      const token = await deps.social.tokens.accessToken(projectId, provider);
      offered = await adapter.listChannels(token);
      providers.push({ provider, state: "connected", message: "" });
    } catch (error) {
      const state = error instanceof TokenUnavailable ? error.state : "unavailable";
      if (!(error instanceof TokenUnavailable))
        deps.logger.warn({ err: error, provider }, "listing social channels failed");
      providers.push({
        provider,
        state,
        message:
          error instanceof TokenUnavailable ? error.message : "The provider did not list the channels; try again.",
      });
      offered = chosen.filter((channel) => CHANNEL_PROVIDER[channel.kind] === provider);
    }
    for (const channel of offered)
      channels.push({
        id: channelIdOf(channel),
        kind: channel.kind,
        name: channel.name,
        provider,
        chosen: chosenIds.has(channelIdOf(channel)),
      });
  }
  return { channels, providers };
}

/**
 * Chooses the project's channels among those its connections offer.
 * @throws CR_ERR_BAD_REQUEST (an id not offered now).
 */
export async function chooseSocialChannels(
  deps: SocialDeps,
  caller: Caller,
  input: { projectId: string; channelIds: string[] },
): Promise<{ channels: SocialChannelView[]; providers: SocialProviderView[] }> {
  const projectId = projectOf(input.projectId);
  const listed = await listSocialChannels(deps, caller, { projectId });
  const wanted = [...new Set(input.channelIds)];
  const picked: Channel[] = [];
  for (const id of wanted) {
    const found = listed.channels.find((channel) => channel.id === id);
    // The request is well formed; what the connections offer now decides (409, as for a post).
    if (!found) throw appError("CONFLICT", `${id.slice(0, 80)} is not among the connected channels`);
    const parsed = parseChannelId(id)!;
    picked.push({ kind: parsed.kind, remoteId: parsed.remoteId, name: found.name });
  }
  await deps.stores.social.choose(projectId, caller.userId, picked, deps.now());
  return listSocialChannels(deps, caller, { projectId });
}

/** The channels named by id: chosen ones, else ones a connection offers now. @throws CR_ERR_BAD_REQUEST */
async function channelsNamed(deps: SocialDeps, projectId: string, ids: string[]): Promise<Channel[]> {
  const chosen = await deps.stores.social.chosen(projectId);
  if (ids.length === 0) {
    if (chosen.length === 0)
      throw badRequest({ channelIds: "Choose where to publish: no channel is chosen for this project yet." });
    return chosen;
  }
  const out: Channel[] = [];
  let offered: SocialChannelView[] | null = null;
  for (const id of [...new Set(ids)]) {
    const parsed = parseChannelId(id);
    if (!parsed) throw badRequest({ channelIds: `${id.slice(0, 80)} is not a channel id` });
    const known = chosen.find((channel) => channelIdOf(channel) === id);
    if (known) {
      out.push(known);
      continue;
    }
    offered ??= (await offeredChannels(deps, projectId)).channels;
    const found = offered.find((channel) => channel.id === id);
    if (!found) throw badRequest({ channelIds: `${id.slice(0, 80)} is not among the connected channels` });
    out.push({ kind: parsed.kind, remoteId: parsed.remoteId, name: found.name });
  }
  return out;
}

/**
 * Publishes a social craft to channels now (`publishAt` unset or past) or at its time: the post
 * goes on the calendar at that time, and a job runs it then. The same craft again replaces a post
 * no channel has started.
 * @throws NOT_FOUND (craft), CR_ERR_BAD_REQUEST (not a social post, no text, no channel, a
 *   channel that needs an image; with a TikTok channel: no privacy level, or one the creator does not
 *   offer, or an interaction allowed that the creator turned off — fields `tiktok…`), CONFLICT
 *   (already publishing or published; TikTok's posting options cannot be read now).
 */
export async function publishSocialPost(
  deps: SocialDeps,
  caller: Caller,
  input: {
    projectId: string;
    craftId: string;
    channelIds: string[];
    publishAt: Date | undefined;
    /** TikTok's options (required with a TikTok channel). */
    tiktok?: { privacyLevel: string; disableComment: boolean; disableDuet: boolean; disableStitch: boolean };
  },
): Promise<SocialPostView> {
  const projectId = projectOf(input.projectId);
  if (!input.craftId || input.craftId.length > 64) throw badRequest({ craftId: "craftId is required" });
  const now = deps.now();
  const publishAt =
    input.publishAt && !Number.isNaN(input.publishAt.getTime()) && input.publishAt > now ? input.publishAt : now;
  if (!(await deps.social.flagsOf(caller.userId)).includes("direct_publish_social_media"))
    throw appError("FEATURE_DISABLED", NOT_ENABLED);
  const craft = await deps.email.crafts.craft(caller, input.craftId);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  if (typeOfWorkflow(craft.workflowName) !== "social")
    throw badRequest({ craftId: "Only a social media post can be published to social channels." });
  const content = postOfCraft(craft.steps as Parameters<typeof postOfCraft>[0]);
  const channels = await channelsNamed(deps, craft.projectId || projectId, input.channelIds);
  const problem = contentProblem(
    content,
    channels.map((c) => c.kind),
  );
  if (problem) throw badRequest({ craftId: problem });
  const tiktok = tiktokOptionsOf(
    channels.map((c) => c.kind),
    input.tiktok ?? { privacyLevel: "", disableComment: false, disableDuet: false, disableStitch: false },
  );
  if ("problem" in tiktok) throw badRequest({ tiktokPrivacyLevel: tiktok.problem });
  if (tiktok.options) {
    // Checked against the creator's settings now, while the user can still change them; the
    // adapter checks again when it publishes (the creator may change them meanwhile).
    const info = await getTikTokCreatorInfo(deps, caller, { projectId: craft.projectId || projectId });
    if (!info.creator) throw appError("CONFLICT", info.message);
    // A crafted post is a photo post (its image); contentProblem refused one without an image.
    const problems = creatorOptionsProblems(tiktok.options, info.creator, "photo");
    if (Object.keys(problems).length > 0) throw badRequest(problems);
  }
  const entryId = calendarEntryIdOf("craft", caller.userId, craft.craftId);
  const existing = await deps.stores.social.post(entryId);
  if (existing && (await deps.stores.social.attemptsOf(entryId)).size > 0)
    throw appError("CONFLICT", "This post is already being published; see its state on the calendar.");
  const title = craft.name || craft.workflowName;
  await deps.stores.calendar.put(entryId, {
    userId: caller.userId,
    projectId: craft.projectId || projectId,
    source: "craft",
    craftId: craft.craftId,
    campaignId: "",
    title,
    type: "social",
    workflowName: craft.workflowName,
    link: craftLink(craft.workflowName, craft.craftId),
    dateTime: publishAt,
    day: dayOf(publishAt),
    // Published by the engine, so never "due" for the owner to post by hand.
    pending: false,
    status: "scheduled",
  });
  const post = await deps.stores.social.putPost({
    _id: entryId,
    userId: caller.userId,
    projectId: craft.projectId || projectId,
    craftId: craft.craftId,
    entryId,
    title,
    text: content.text,
    imageAssetId: content.imageAssetId,
    channels,
    publishAt,
    open: true,
    ...(tiktok.options ? { tiktok: tiktok.options } : {}),
  });
  await deps.social.schedule(post._id, publishAt);
  return postView(deps, post, new Map());
}

const NOT_ENABLED = "Publishing to social media is not enabled for this account.";

/**
 * A social craft's post as an automation's publish_social_post step keeps it (read as the caller,
 * when the automation is saved): its title, text and image, checked against the channels named
 * (or the project's chosen ones).
 * @throws CR_ERR_BAD_REQUEST (`steps`): the craft is not found or not a social post, or the post
 *   cannot go to those channels.
 */
export async function craftPostForStep(
  deps: SocialDeps,
  caller: Caller,
  projectId: string,
  craftId: string,
  channelIds: string[],
): Promise<StepPost> {
  const craft = await deps.email.crafts.craft(caller, craftId);
  if (!craft) throw badRequest({ steps: "The social post craft of a publish step is not found." });
  if (typeOfWorkflow(craft.workflowName) !== "social")
    throw badRequest({ steps: "A publish step publishes a social media post craft." });
  const content = postOfCraft(craft.steps as Parameters<typeof postOfCraft>[0]);
  const kinds = channelIds.length
    ? channelIds.map((id) => parseChannelId(id)?.kind).filter((kind) => kind !== undefined)
    : (await deps.stores.social.chosen(projectId)).map((channel) => channel.kind);
  const problem = contentProblem(content, kinds);
  if (problem) throw badRequest({ steps: problem });
  return { title: craft.name || craft.workflowName, ...content };
}

/**
 * An automation step's post handed to the engine: made once per `postId` (the run's step), then
 * published now through the same attempts as a calendar post. The same id again (the step retried
 * after a crash) makes no second post; it wakes the first.
 * @returns the channels' names, or why it cannot be published as it is.
 */
export async function publishForAutomation(
  deps: SocialDeps,
  input: {
    userId: string;
    projectId: string;
    automationId: string;
    postId: string;
    post: StepPost;
    channelIds: string[];
  },
): Promise<{ state: "queued"; channels: string[] } | { state: "refused"; reason: string }> {
  const existing = await deps.stores.social.post(input.postId);
  if (existing) {
    await deps.social.schedule(existing._id, deps.now());
    return { state: "queued", channels: existing.channels.map((c) => c.name) };
  }
  if (!(await deps.social.flagsOf(input.userId)).includes("direct_publish_social_media"))
    return { state: "refused", reason: NOT_ENABLED };
  let channels: Channel[];
  try {
    channels = await channelsNamed(deps, input.projectId, input.channelIds);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "CR_ERR_BAD_REQUEST") throw error;
    return { state: "refused", reason: Object.values(error.fields ?? {})[0] ?? error.message };
  }
  const problem = contentProblem(
    input.post,
    channels.map((c) => c.kind),
  );
  if (problem) return { state: "refused", reason: problem };
  const now = deps.now();
  const { post } = await deps.stores.social.createPost({
    _id: input.postId,
    userId: input.userId,
    projectId: input.projectId,
    craftId: "",
    entryId: "",
    automationId: input.automationId,
    title: input.post.title,
    text: input.post.text,
    imageAssetId: input.post.imageAssetId,
    channels,
    publishAt: now,
    open: true,
  });
  await deps.social.schedule(post._id, now);
  return { state: "queued", channels: post.channels.map((c) => c.name) };
}

async function ownPost(deps: SocialDeps, caller: Caller, projectId: string, postId: string): Promise<SocialPostDoc> {
  const post = postId.length <= 128 ? await deps.stores.social.post(postId) : null;
  if (!post || post.userId !== caller.userId || post.projectId !== projectOf(projectId))
    throw appError("NOT_FOUND", "No such social post.");
  return post;
}

/** A post with its state per channel. @throws NOT_FOUND */
export async function getSocialPost(
  deps: SocialDeps,
  caller: Caller,
  input: { projectId: string; postId: string },
): Promise<SocialPostView> {
  const post = await ownPost(deps, caller, input.projectId, input.postId);
  return postView(deps, post, await deps.stores.social.attemptsOf(post._id));
}

/**
 * Tries a failed channel again: the user's Retry, recorded after its last attempt, so the next
 * run starts a new one. @throws NOT_FOUND, CONFLICT (the channel has not failed).
 */
export async function retrySocialChannel(
  deps: SocialDeps,
  caller: Caller,
  input: { projectId: string; postId: string; channelId: string },
): Promise<SocialPostView> {
  const post = await ownPost(deps, caller, input.projectId, input.postId);
  const channel = post.channels.find((c) => channelIdOf(c) === input.channelId);
  if (!channel) throw appError("NOT_FOUND", "This post does not go to that channel.");
  const attempts = (await deps.stores.social.attemptsOf(post._id)).get(input.channelId) ?? [];
  if (channelView(attempts, deps.social.rules).state !== "failed")
    throw appError("CONFLICT", "Only a channel that failed can be tried again.");
  const top = Math.max(...attempts.map((a) => a.attempt));
  await deps.stores.social.retry(post._id, input.channelId, top, deps.now());
  await deps.stores.social.setPost(post._id, { open: true });
  await deps.social.schedule(post._id, deps.now());
  return getSocialPost(deps, caller, input);
}

/**
 * A calendar entry's post is moved (the calendar's drag) before any channel started.
 * @returns false when the entry has no post. @throws CONFLICT once a channel started.
 */
export async function moveSocialPost(deps: SocialDeps, entryId: string, at: Date): Promise<boolean> {
  const post = await deps.stores.social.post(entryId);
  if (!post) return false;
  if ((await deps.stores.social.attemptsOf(post._id)).size > 0)
    throw appError("CONFLICT", "This post is already being published; it can no longer be moved.");
  await deps.stores.social.setPost(post._id, { publishAt: at });
  await deps.social.schedule(post._id, at);
  return true;
}

/** A calendar entry's post is taken off the calendar. @throws CONFLICT once a channel started. */
export async function dropSocialPost(deps: SocialDeps, entryId: string): Promise<void> {
  const post = await deps.stores.social.post(entryId);
  if (!post) return;
  if ((await deps.stores.social.attemptsOf(post._id)).size > 0)
    throw appError("CONFLICT", "This post is already being published; it stays on the calendar.");
  await deps.stores.social.removePost(post._id);
}

/** How many steps one run takes on a channel at most (recover, then start, is two). */
const STEPS_PER_RUN = 4;

/**
 * Moves every channel of a due post on as far as it can now: starts attempts, recovers attempts
 * cut short (their refs, then the channel's recent posts, before anything is tried again), and
 * records outcomes; then updates the calendar entry and notifies each channel that settled.
 * Safe to run in several processes at once: each attempt is claimed by one insert.
 * @returns when to come back (a wait for a lease or a retry), or null.
 */
export async function advancePost(deps: SocialDeps, postId: string): Promise<Date | null> {
  const post = await deps.stores.social.post(postId);
  if (!post) return null;
  const now = deps.now();
  if (post.publishAt.getTime() > now.getTime()) return post.publishAt;
  const before = await deps.stores.social.attemptsOf(post._id);
  const waits = await Promise.all(
    post.channels.map((channel) => advanceChannel(deps, post, channel, before.get(channelIdOf(channel)) ?? [])),
  );
  const after = await deps.stores.social.attemptsOf(post._id);
  const states = channelStates(deps, post, after);
  for (const state of states) {
    const was = channelView(before.get(state.channelId) ?? [], deps.social.rules).state;
    if (state.state === was || (state.state !== "published" && state.state !== "failed")) continue;
    const notice = channelNotice(post.title, state.name, { ...state, remotePostId: "" });
    await notify(deps, {
      userId: post.userId,
      ...notice,
      link: post.entryId ? `/app/calendar?date=${dayOf(post.publishAt)}` : `/app/automation/${post.automationId ?? ""}`,
      key: `social:${post._id}:${state.channelId}:${state.attempts}:${state.state}`,
    });
  }
  if (post.entryId) await deps.stores.calendar.set(post.entryId, { status: postStatus(states.map((s) => s.state)) });
  if (settled(states.map((s) => s.state))) await deps.stores.social.setPost(post._id, { open: false });
  const next = waits.filter((at): at is Date => at !== null).sort((a, b) => a.getTime() - b.getTime())[0];
  return next ?? null;
}

async function advanceChannel(
  deps: SocialDeps,
  post: SocialPostDoc,
  channel: Channel,
  known: AttemptRecord[],
): Promise<Date | null> {
  const id = channelIdOf(channel);
  let attempts = known;
  for (let step = 0; step < STEPS_PER_RUN; step++) {
    const next = nextStep(attempts, deps.now(), deps.social.rules);
    if (next.do === "done") return null;
    if (next.do === "wait") return next.at;
    if (next.do === "recover") await recover(deps, post, channel, next);
    else if (!(await deps.stores.social.start(post._id, id, next.attempt, deps.now()))) return null;
    else await attempt(deps, post, channel, next.attempt);
    attempts = (await deps.stores.social.attemptsOf(post._id)).get(id) ?? [];
  }
  return null;
}

/** The adapter, token and content of a channel's attempt; a refusal to record when one is missing. */
async function prepare(
  deps: SocialDeps,
  post: SocialPostDoc,
  channel: Channel,
): Promise<{ adapter: ChannelAdapter; token: string; content: PostContent } | { reason: string; retryable: boolean }> {
  const provider = CHANNEL_PROVIDER[channel.kind];
  const adapter = deps.social.adapters.get(provider);
  if (!adapter) return { reason: `Publishing to ${channel.kind} is not available on this server.`, retryable: false };
  let token: string;
  try {
    token = await deps.social.tokens.accessToken(post.projectId, provider);
  } catch (error) {
    if (!(error instanceof TokenUnavailable)) throw error;
    return { reason: error.message, retryable: error.state === "unavailable" };
  }
  // Instagram takes only JPEG; TikTok's photo posts JPEG or WebP.
  const jpeg = channel.kind === "instagram" || channel.kind === "tiktok";
  const media = post.imageAssetId ? [await deps.social.images.image(post.userId, post.imageAssetId, jpeg)] : [];
  return {
    adapter,
    token,
    content: { text: post.text, media, ...(post.tiktok ? { tiktok: post.tiktok } : {}) },
  };
}

/** One claimed attempt: the refs kept as soon as named, the outcome recorded; unknown when the call broke. */
async function attempt(deps: SocialDeps, post: SocialPostDoc, channel: Channel, n: number): Promise<void> {
  const id = channelIdOf(channel);
  const ready = await prepare(deps, post, channel).catch((error: Error) => {
    deps.logger.warn({ err: error, postId: post._id, channel: id }, "a social post's image could not be had");
    return { reason: "The post's image could not be read from the media library.", retryable: true };
  });
  if ("reason" in ready) {
    await deps.stores.social.outcome(post._id, id, n, { at: deps.now(), state: "failed", ...ready });
    return;
  }
  try {
    const outcome = await ready.adapter.publish(ready.token, channel, ready.content, (ref) =>
      deps.stores.social.ref(post._id, id, n, ref, deps.now()),
    );
    const record = outcomeRecord(outcome, deps.now());
    if (record) await deps.stores.social.outcome(post._id, id, n, record);
  } catch (error) {
    // The provider may have made the post: the attempt stays without an outcome, and is recovered
    // (refs, then the channel's recent posts) once its lease passes.
    deps.logger.warn({ err: error, postId: post._id, channel: id, attempt: n }, "a social post's outcome is unknown");
  }
}

/**
 * An attempt cut short: a ref naming a post proves it; else the channel's posts since the attempt
 * began are searched for this text. Found: published. Not found: the attempt failed (retryable),
 * and the next one may start. Unreachable provider: left for the next run.
 */
async function recover(
  deps: SocialDeps,
  post: SocialPostDoc,
  channel: Channel,
  step: { attempt: number; refs: string[]; since: Date },
): Promise<void> {
  const id = channelIdOf(channel);
  const ready = await prepare(deps, post, channel).catch(() => null);
  if (!ready) return;
  if ("reason" in ready) {
    // Whether it was made cannot be known without a token; it waits for one (a reconnect).
    if (!ready.retryable)
      await deps.stores.social.outcome(post._id, id, step.attempt, { at: deps.now(), state: "failed", ...ready });
    return;
  }
  try {
    for (const ref of step.refs.filter(refProvesPost).reverse()) {
      const outcome = await ready.adapter.status(ready.token, channel, ref);
      if (outcome.state === "published") {
        await deps.stores.social.outcome(post._id, id, step.attempt, outcomeRecord(outcome, deps.now())!);
        return;
      }
      // Accepted and still being processed (a TikTok post in moderation): it will be published, so
      // it is not looked for nor tried again; the next sweep asks again.
      if (outcome.state === "processing") return;
    }
    const found = await ready.adapter.findRecent(ready.token, channel, ready.content, step.since);
    await deps.stores.social.outcome(
      post._id,
      id,
      step.attempt,
      found
        ? { at: deps.now(), state: "published", remotePostId: found.remotePostId, permalink: found.permalink ?? "" }
        : {
            at: deps.now(),
            state: "failed",
            reason: `The attempt was cut short and the post is not on ${channel.name}.`,
            retryable: true,
          },
    );
  } catch (error) {
    deps.logger.warn({ err: error, postId: post._id, channel: id }, "recovering a social post's attempt failed; later");
  }
}

/**
 * One pass of the sweep: every open post whose time has come is moved on (posts whose job was
 * lost, attempts cut short by a crash whose lease has passed, automatic retries).
 * @returns how many posts were looked at.
 */
export async function sweepSocialPosts(deps: SocialDeps): Promise<number> {
  const now = deps.now().getTime();
  const due = (await deps.stores.social.openPosts(500)).filter((post) => post.publishAt.getTime() <= now);
  for (const post of due) {
    try {
      const next = await advancePost(deps, post._id);
      if (next) await deps.social.schedule(post._id, next);
    } catch (error) {
      deps.logger.warn({ err: error, postId: post._id }, "a social post could not be moved on; next sweep");
    }
  }
  return due.length;
}
