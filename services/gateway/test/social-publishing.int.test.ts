import { randomUUID } from "node:crypto";
import { createServiceClient } from "@crafter/kit";
import {
  GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import { LocalMetaGraph } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { complete, W } from "./craft-steps";

// Social publishing through the gateway, notifications, account (Meta's connection) and media (the
// image's signed URL), against the local Graph API: Meta connected through Facebook Login, its
// Pages and Instagram account chosen, a crafted post published now to a Page and Instagram, a post
// scheduled a few seconds ahead, a refusal shown with its reason and Retry, and a crash after Meta
// accepted a post, which is found again among the Page's posts rather than posted twice.
jest.setTimeout(60_000);

const env = stackEnv();
const SHORT_LIVED_MS = 1_500;
const graph = new LocalMetaGraph({
  clientId: env.META_CLIENT_ID ?? "",
  clientSecret: env.META_CLIENT_SECRET ?? "",
  processingMs: 200,
  // Short-lived user tokens die within the suite: what publishing uses must be the long-lived one.
  shortLivedMs: SHORT_LIVED_MS,
});
const PAGE = "facebook_page:101000000000001";
const INSTAGRAM = "instagram:17841400000000001";

let owner: GatewaySession;
let projectId: string;
let connectedAt: number;

async function admin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

/** A social craft with its post written (offline) and, when asked, its image made. */
async function socialCraft(topic: string, image: boolean, project?: string): Promise<string> {
  const craftId = (await owner.post(W, { workflowName: "SocialMediaPostWriter", projectId: project })).body.result
    .craftId as string;
  await complete(owner, craftId, "brief", { network: "instagram", topic });
  if (image) {
    await complete(owner, craftId, "imageIdeas", { subject: "A red bicycle by a bakery" });
    expect((await owner.post(`${W}/${craftId}/image/ImageAppender`, { params: {} })).status).toBe(200);
  }
  return craftId;
}

async function post(id: string) {
  const answer = await owner.get(`/api/social/posts/${id}?projectId=${projectId}`);
  expect(answer.status).toBe(200);
  return answer.body.result as {
    id: string;
    text: string;
    channels: { channelId: string; state: string; permalink: string; reason: string; attempts: number }[];
  };
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const stateOf = (p: Awaited<ReturnType<typeof post>>, channel: string) =>
  p.channels.find((c) => c.channelId === channel);

beforeAll(async () => {
  await graph.start(Number(new URL(env.META_BASE_URL ?? "http://x:28046").port));
  const [{ session }, boss] = await Promise.all([verifiedSession("social"), admin()]);
  owner = session;
  const created = await owner.post("/api/projects/createProject", {
    name: "Town Bikes",
    description: "Bikes for the town",
  });
  projectId = created.body.result.project.projectId;
  const ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  for (const flag of ["meta_integration", "direct_publish_social_media"])
    expect((await boss.put(`/api/admin/users/${ownerId}/flags`, { flag, enabled: true })).status).toBe(200);
  await connectMeta(projectId);
  connectedAt = Date.now();
});

/** Facebook Login as the browser does it: the dialog (the local Graph API), then the callback. */
async function connectMeta(project: string): Promise<void> {
  const started = await owner.post(`/api/integrations/meta/connect?projectId=${project}`, {});
  expect(started.status).toBe(200);
  const dialog = new URL(started.body.result.authorizeUrl);
  expect(dialog.pathname).toBe("/v21.0/dialog/oauth");
  dialog.hostname = "127.0.0.1";
  const consent = await fetch(dialog, { redirect: "manual" });
  const callback = consent.headers.get("location")!;
  const back = await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), { redirect: "manual" });
  expect(back.headers.get("location")).toBe("/app/settings/integrations?connected=meta");
}

afterAll(() => graph.stop());

const graphUrl = () => `http://127.0.0.1:${new URL(env.META_BASE_URL ?? "http://x:28046").port}`;

describe("Meta's long-lived token", () => {
  it("is what the connection keeps: the Pages still list after the short-lived token expired", async () => {
    expect(graph.seen.codeExchanges).toBe(1);
    expect(graph.seen.longLivedExchanges).toBe(1);
    // The fake refuses a short-lived token after its lifetime, and will not exchange it then.
    const short = graph.issueUserToken(false);
    // Past its lifetime, and so past the connection's own short-lived token's (issued before it).
    await new Promise((resolve) => setTimeout(resolve, SHORT_LIVED_MS + 200));
    expect(Date.now()).toBeGreaterThan(connectedAt + SHORT_LIVED_MS);
    const me = await fetch(`${graphUrl()}/v21.0/me?access_token=${short}`);
    expect(me.status).toBe(400);
    expect((await me.json()).error).toMatchObject({ code: 190, error_subcode: 463 });
    const exchange = new URL(`${graphUrl()}/v21.0/oauth/access_token`);
    for (const [name, value] of Object.entries({
      grant_type: "fb_exchange_token",
      client_id: env.META_CLIENT_ID ?? "",
      client_secret: env.META_CLIENT_SECRET ?? "",
      fb_exchange_token: short,
    }))
      exchange.searchParams.set(name, value);
    expect((await (await fetch(exchange)).json()).error).toMatchObject({ code: 190, error_subcode: 463 });
    // Account keeps the long-lived token's expiry (about 60 days), as notifications gets it.
    const tokens = createServiceClient(IntegrationsService, env.ACCOUNT_URL ?? "", {
      timeoutMs: 30_000,
      as: "service",
      credentials: stackServiceCredentials("notifications"),
    });
    const grant = await tokens.getAccessToken({ projectId, provider: "meta" });
    const expiresAt = Number(grant.expiresAt?.seconds ?? 0n) * 1000;
    expect(expiresAt).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(expiresAt).toBeLessThan(Date.now() + 61 * 86_400_000);
    // The connection's token (and the Page tokens had through it) still work.
    const listed = await owner.get(`/api/social/channels?projectId=${projectId}`);
    expect(listed.body.result.providers).toContainEqual({ provider: "meta", state: "connected", message: "" });
    expect(listed.body.result.channels.map((c: { id: string }) => c.id)).toContain(PAGE);
  });
});

describe("Meta's long-lived token expired", () => {
  it("turns the connection needs reconnecting, and a post fails saying so", async () => {
    const other = await owner.post("/api/projects/createProject", {
      name: "Town Bikes Outlet",
      description: "Second-hand bikes",
    });
    const otherId = other.body.result.project.projectId as string;
    // Whole seconds, as Meta's expires_in counts them: the fake and account then agree on the
    // moment it expires (account's is the later, counted from when the answer arrived). Long
    // enough to choose the channels with it on a loaded machine; then waited out.
    graph.longLivedMs = 3_000;
    try {
      await connectMeta(otherId);
    } finally {
      graph.longLivedMs = 5_183_944_000;
    }
    expect((await owner.put(`/api/social/channels?projectId=${otherId}`, { channelIds: [PAGE] })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_700));
    const craftId = await socialCraft("Outlet opening", false, otherId);
    const made = await owner.post(`/api/social/posts?projectId=${otherId}`, {
      craftId,
      publishAt: new Date().toISOString(),
    });
    expect(made.status).toBe(201);
    const failed = await until(
      async () =>
        (await owner.get(`/api/social/posts/${made.body.result.id}?projectId=${otherId}`)).body.result as {
          channels: { state: string; reason: string }[];
        },
      (p) => p.channels[0]?.state === "failed",
    );
    expect(failed.channels[0]?.reason).toContain("needs reconnecting");
    const listed = await owner.get(`/api/integrations?projectId=${otherId}`);
    const meta = (listed.body.result as { provider: string; connection?: Record<string, unknown> }[]).find(
      (i) => i.provider === "meta",
    );
    expect(meta?.connection).toMatchObject({
      state: "needs_reconnecting",
      lastError: expect.stringContaining("The access token expired on"),
    });
    // The owner hears of it in-app.
    const notices = await until(
      async () => JSON.stringify((await owner.get("/api/notifications")).body),
      (text) => text.includes("needs reconnecting"),
    );
    expect(notices).toContain("Meta");
  });
});

describe("channels", () => {
  it("lists the connected account's Pages and their Instagram account, and keeps the ones chosen", async () => {
    const listed = await owner.get(`/api/social/channels?projectId=${projectId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.result.providers).toContainEqual({ provider: "meta", state: "connected", message: "" });
    const meta = listed.body.result.channels.filter((c: { provider: string }) => c.provider === "meta");
    expect(meta.map((c: { id: string; chosen: boolean }) => [c.id, c.chosen])).toEqual([
      [PAGE, false],
      ["facebook_page:101000000000002", false],
      [INSTAGRAM, false],
    ]);
    const chosen = await owner.put(`/api/social/channels?projectId=${projectId}`, { channelIds: [PAGE, INSTAGRAM] });
    expect(chosen.status).toBe(200);
    expect(
      chosen.body.result.channels.filter((c: { chosen: boolean }) => c.chosen).map((c: { id: string }) => c.id),
    ).toEqual([PAGE, INSTAGRAM]);
    const unknown = await owner.put(`/api/social/channels?projectId=${projectId}`, { channelIds: ["instagram:999"] });
    expect(unknown.status).toBe(409);
  });
});

describe("publishing", () => {
  it("publishes a crafted post with its image now, once on the Page and once on Instagram, with their links", async () => {
    graph.reset();
    const craftId = await socialCraft("Spring tune-ups are back", true);
    const made = await owner.post(`/api/social/posts?projectId=${projectId}`, {
      craftId,
      publishAt: new Date().toISOString(),
    });
    expect(made.status).toBe(201);
    const done = await until(
      () => post(made.body.result.id),
      (p) => p.channels.every((c) => c.state === "published"),
    );
    const [onPage] = graph.published("101000000000001");
    const [onInstagram] = graph.published("17841400000000001");
    expect(graph.published("101000000000001")).toHaveLength(1);
    expect(graph.published("17841400000000001")).toHaveLength(1);
    expect(stateOf(done, PAGE)).toMatchObject({ state: "published", permalink: onPage?.permalink, attempts: 1 });
    expect(stateOf(done, INSTAGRAM)).toMatchObject({ state: "published", permalink: onInstagram?.permalink });
    expect(onPage?.message).toBe(done.text);
    // Meta fetched the image from the media store through signed, expiring URLs; Instagram's as JPEG.
    expect(graph.seen.imageFetches).toHaveLength(2);
    for (const fetched of graph.seen.imageFetches) {
      expect(fetched.ok).toBe(true);
      expect(fetched.url).toMatch(/\/media\/[^?]+\?exp=\d+&sig=[\w-]+$/);
    }
    expect(onInstagram?.imageUrl).toMatch(/provider\.jpg\?/);
    const tampered = await fetch(onPage!.imageUrl.replace(/sig=[\w-]+/, "sig=forged"));
    expect(tampered.status).not.toBe(200);

    // The calendar shows it published on both channels.
    const day = new Date();
    const calendar = await owner.get(
      `/api/calendar?projectId=${projectId}&from=${new Date(day.getTime() - 3_600_000).toISOString()}&to=${new Date(day.getTime() + 3_600_000).toISOString()}`,
    );
    const entry = calendar.body.result.find((e: { socialPostId?: string }) => e.socialPostId === made.body.result.id);
    expect(entry).toMatchObject({ type: "social", status: "published" });
    expect(entry.channels.map((c: { state: string }) => c.state)).toEqual(["published", "published"]);
    // Published once: the same craft cannot be published again.
    const again = await owner.post(`/api/social/posts?projectId=${projectId}`, {
      craftId,
      publishAt: new Date().toISOString(),
    });
    expect(again.status).toBe(409);
  });

  it("publishes a scheduled post at its time, not before", async () => {
    graph.reset();
    const craftId = await socialCraft("Saturday group ride", false);
    const at = new Date(Date.now() + 4000);
    const made = await owner.post(`/api/social/posts?projectId=${projectId}`, {
      craftId,
      channelIds: [PAGE],
      publishAt: at.toISOString(),
    });
    expect(made.status).toBe(201);
    expect(made.body.result.channels).toMatchObject([{ channelId: PAGE, state: "scheduled" }]);
    // Dragged on the calendar to a second later: the post moves with its entry.
    const moved = new Date(at.getTime() + 1000);
    const drag = await owner.request("PATCH", `/api/calendar/${made.body.result.entryId}?projectId=${projectId}`, {
      dateTime: moved.toISOString(),
    });
    expect(drag.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now() - 500)));
    expect(graph.published("101000000000001")).toHaveLength(0);
    const done = await until(
      () => post(made.body.result.id),
      (p) => p.channels.every((c) => c.state === "published"),
    );
    expect(stateOf(done, PAGE)?.state).toBe("published");
    expect(graph.published("101000000000001")).toHaveLength(1);
    expect(graph.published("101000000000001")[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(moved.getTime() - 50);
  });

  it("shows Meta's refusal with its reason, and publishes once on Retry", async () => {
    graph.reset();
    graph.refuseNext(1, {
      status: 400,
      message: "(#200) The user hasn't authorized the application",
      type: "OAuthException",
      code: 200,
    });
    const craftId = await socialCraft("Puncture clinic tonight", false);
    const made = await owner.post(`/api/social/posts?projectId=${projectId}`, {
      craftId,
      channelIds: [PAGE],
      publishAt: new Date().toISOString(),
    });
    const failed = await until(
      () => post(made.body.result.id),
      (p) => stateOf(p, PAGE)?.state === "failed",
    );
    expect(stateOf(failed, PAGE)).toMatchObject({
      state: "failed",
      reason: "(#200) The user hasn't authorized the application",
    });
    expect(graph.published("101000000000001")).toHaveLength(0);
    const retried = await owner.post(`/api/social/posts/${made.body.result.id}/retry?projectId=${projectId}`, {
      channelId: PAGE,
    });
    expect(retried.status).toBe(200);
    const done = await until(
      () => post(made.body.result.id),
      (p) => stateOf(p, PAGE)?.state === "published",
    );
    expect(stateOf(done, PAGE)).toMatchObject({ state: "published", attempts: 2 });
    expect(graph.published("101000000000001")).toHaveLength(1);
    const notices = await owner.get("/api/notifications");
    const titles = JSON.stringify(notices.body);
    expect(titles).toContain("Not published on Town Bikes");
    expect(titles).toContain("Published on Town Bikes");
    // Retry is for a failed channel only.
    expect(
      (await owner.post(`/api/social/posts/${made.body.result.id}/retry?projectId=${projectId}`, { channelId: PAGE }))
        .status,
    ).toBe(409);
  });

  it("finds a post Meta accepted before the connection broke, instead of posting it again", async () => {
    graph.reset();
    graph.crashAfterAccept(1);
    const craftId = await socialCraft("Winter storage for your bike", false);
    const made = await owner.post(`/api/social/posts?projectId=${projectId}`, {
      craftId,
      channelIds: [PAGE],
      publishAt: new Date().toISOString(),
    });
    const done = await until(
      () => post(made.body.result.id),
      (p) => stateOf(p, PAGE)?.state === "published",
      30_000,
    );
    expect(graph.seen.crashed).toBe(1);
    expect(graph.published("101000000000001")).toHaveLength(1);
    expect(stateOf(done, PAGE)).toMatchObject({
      state: "published",
      attempts: 1,
      permalink: graph.published("101000000000001")[0]!.permalink,
    });
  });
});

describe("the automation step", () => {
  it("publishes a crafted post once per run through the engine, to the channels it names", async () => {
    graph.reset();
    const craftId = await socialCraft("Free bell with every service", true);
    const textOnly = await socialCraft("Free bell, no picture", false);
    // Instagram needs an image: refused when the automation is saved, with the reason.
    const refused = await owner.post(`/api/automations?projectId=${projectId}`, {
      name: "Bad post",
      trigger: { kind: "contact_created" },
      steps: [{ id: "post", kind: "publish_social_post", craftId: textOnly, channelIds: [INSTAGRAM] }],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Instagram and TikTok posts need an image");

    const made = await owner.post(`/api/automations?projectId=${projectId}`, {
      name: "Welcome post",
      trigger: { kind: "contact_created" },
      steps: [{ id: "post", kind: "publish_social_post", craftId, channelIds: [PAGE, INSTAGRAM] }],
    });
    expect(made.status).toBe(201);
    const automationId = made.body.result.id as string;
    // The craft's post was read when it was saved.
    const kept = made.body.result.steps[0].post as { text: string; imageAssetId: string };
    expect(kept.text).toContain("free bell with every service");
    expect(kept.imageAssetId).not.toBe("");
    expect((await owner.post(`/api/automations/${automationId}/activate?projectId=${projectId}`)).status).toBe(200);
    const contact = await owner.post(`/api/contacts?projectId=${projectId}`, {
      email: `rider-${randomUUID().slice(0, 8)}@example.test`,
    });
    expect(contact.status).toBe(201);

    const runs = await until(
      async () =>
        (await owner.get(`/api/automations/${automationId}/runs?projectId=${projectId}`)).body.result.result as {
          id: string;
          status: string;
          steps: { stepId: string; status: string; detail: string }[];
        }[],
      (list) => list[0]?.status === "completed",
      30_000,
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]!.steps.find((step) => step.stepId === "post")).toMatchObject({
      status: "done",
      detail: "Publishing on Town Bikes, @townbikes",
    });
    // The run's step is the post: published once on each channel, with its link.
    const postId = `${runs[0]!.id}.post`;
    const done = await until(
      () => post(postId),
      (p) => p.channels.every((c) => c.state === "published"),
    );
    expect(done.text).toBe(kept.text);
    expect(graph.published("101000000000001")).toHaveLength(1);
    expect(graph.published("17841400000000001")).toHaveLength(1);
    expect(graph.published("101000000000001")[0]!.message).toBe(kept.text);
    expect(stateOf(done, INSTAGRAM)).toMatchObject({
      attempts: 1,
      permalink: graph.published("17841400000000001")[0]!.permalink,
    });
  });
});
