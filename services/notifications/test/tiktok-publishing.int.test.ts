import { randomUUID } from "node:crypto";
import { createServiceClient, providerHttp } from "@crafter/kit";
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
import { LocalTikTokServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { complete, W } from "../../gateway/test/craft-steps";
import { tiktokAdapter } from "../src/clients/social/tiktok";

// TikTok through the gateway against the tests' local TikTok (TIKTOK_BASE_URL, port 28047 +
// STACK_PORT_OFFSET): Login Kit v2 from Settings › Integrations, the creator as the connection,
// the access token services get, what the creator may post, a photo post published with the
// privacy level and interactions chosen among the creator's options (refused otherwise), and
// Disconnect revoking at TikTok.
jest.setTimeout(120_000);

const env = stackEnv();
const baseUrl = env.TIKTOK_BASE_URL ?? "http://tiktok.crafter.test:28047";
const tiktok = new LocalTikTokServer({
  clientKey: env.TIKTOK_CLIENT_ID ?? "",
  clientSecret: env.TIKTOK_CLIENT_SECRET ?? "",
  processingMs: 200,
});
const tokens = createServiceClient(IntegrationsService, env.ACCOUNT_URL ?? "", {
  timeoutMs: 30_000,
  as: "service",
  credentials: stackServiceCredentials("notifications"),
});
const pins = { "tiktok.crafter.test": "127.0.0.1" };
const adapter = tiktokAdapter({
  reads: providerHttp({ timeoutMs: 10_000, pins }),
  writes: providerHttp({ timeoutMs: 10_000, pins, attempts: 1 }),
  baseUrl,
});

let owner: GatewaySession;
let projectId: string;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token") ?? "";
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

/** The connect flow as the browser follows it: start, TikTok's consent, the callback. */
async function connect(): Promise<string> {
  const started = await owner.post(`/api/integrations/tiktok/connect?projectId=${projectId}`, {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.result.authorizeUrl);
  expect(authorize.pathname).toBe("/v2/auth/authorize/");
  expect(authorize.searchParams.get("client_key")).toBe(env.TIKTOK_CLIENT_ID);
  expect(authorize.searchParams.get("scope")).toBe("user.info.basic,video.publish,video.upload,video.list");
  // The browser reaches TikTok's host; here it is the local server's name, pinned for the services.
  authorize.hostname = "127.0.0.1";
  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = consent.headers.get("location") ?? "";
  const back = await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), { redirect: "manual" });
  expect(back.status).toBe(302);
  return back.headers.get("location") ?? "";
}

beforeAll(async () => {
  await tiktok.start(Number(new URL(baseUrl).port));
  let admin: GatewaySession;
  [{ session: owner }, admin] = await Promise.all([verifiedSession("tiktok"), signUpAdmin()]);
  const ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  for (const flag of ["tiktok_integration", "direct_publish_social_media"]) {
    expect((await admin.put(`/api/admin/users/${ownerId}/flags`, { flag, enabled: true })).status).toBe(200);
  }
  const created = await owner.post("/api/projects/createProject", { name: "Town Bikes", description: "Bikes" });
  expect(created.status).toBe(201);
  projectId = created.body.result.project.projectId;
});

afterAll(() => tiktok.stop());

describe("TikTok", () => {
  let accessToken = "";

  it("connects with Login Kit from Settings › Integrations, as the creator, never showing a token", async () => {
    expect(await connect()).toBe("/app/settings/integrations?connected=tiktok");
    expect(tiktok.seen.codeExchanges).toBe(1);
    const list = await owner.get(`/api/integrations?projectId=${projectId}`);
    expect(list.status).toBe(200);
    const item = (list.body.result as { provider: string; connection?: unknown }[]).find(
      (i) => i.provider === "tiktok",
    );
    expect(item?.connection).toMatchObject({
      state: "connected",
      remoteAccountId: tiktok.creator.openId,
      remoteAccountName: tiktok.creator.nickname,
      scopes: ["user.info.basic", "video.publish", "video.upload", "video.list"],
    });
    expect(JSON.stringify(list.body)).not.toMatch(/"(act|rft)\.[A-Za-z0-9_-]{10,}/);
  });

  it("gives the notifications service a token that reads the creator's channel and posting options", async () => {
    const grant = await tokens.getAccessToken({ projectId, provider: "tiktok" });
    accessToken = grant.accessToken;
    expect(tiktok.isLive(accessToken)).toBe(true);
    expect(grant.remoteAccountId).toBe(tiktok.creator.openId);
    expect(await adapter.listChannels(accessToken)).toEqual([
      expect.objectContaining({ kind: "tiktok", remoteId: tiktok.creator.openId, name: "Bikes Shop (@bikes.shop)" }),
    ]);
    expect((await adapter.creatorInfo(accessToken)).privacyLevelOptions).toEqual(tiktok.creator.privacyLevelOptions);
  });

  it("answers the creator's posting options through the gateway", async () => {
    const read = await owner.get(`/api/social/tiktok/creator?projectId=${projectId}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toEqual({
      state: "connected",
      message: "",
      creator: expect.objectContaining({
        nickname: tiktok.creator.nickname,
        privacyLevelOptions: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"],
        commentDisabled: false,
      }),
    });
  });

  it("publishes a photo post only with a privacy level the creator offers and no interaction it turned off", async () => {
    const channel = `tiktok:${tiktok.creator.openId}`;
    expect((await owner.put(`/api/social/channels?projectId=${projectId}`, { channelIds: [channel] })).status).toBe(
      200,
    );
    const craftId = (await owner.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(owner, craftId, "brief", { network: "instagram", topic: "New bells are in" });
    await complete(owner, craftId, "imageIdeas", { subject: "A brass bicycle bell" });
    expect((await owner.post(`${W}/${craftId}/image/ImageAppender`, { params: {} })).status).toBe(200);
    const publish = (options: Record<string, unknown>) =>
      owner.post(`/api/social/posts?projectId=${projectId}`, {
        craftId,
        channelIds: [channel],
        publishAt: new Date().toISOString(),
        ...options,
      });
    const before = tiktok.postsOf().length;

    const none = await publish({});
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ tiktokPrivacyLevel: "Choose who can see this post on TikTok." });
    const notOffered = await publish({ tiktokPrivacyLevel: "FOLLOWER_OF_CREATOR" });
    expect(notOffered.status).toBe(400);
    expect(notOffered.body.error.fields.tiktokPrivacyLevel).toBe(
      "This TikTok account cannot post as FOLLOWER_OF_CREATOR; it offers PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY.",
    );
    // The creator turns comments off in TikTok: a post may no longer allow them.
    tiktok.creator.commentDisabled = true;
    expect((await owner.get(`/api/social/tiktok/creator?projectId=${projectId}`)).body.result.creator).toMatchObject({
      commentDisabled: true,
    });
    const comments = await publish({ tiktokPrivacyLevel: "SELF_ONLY", tiktokDisableComment: false });
    expect(comments.status).toBe(400);
    expect(comments.body.error.fields).toEqual({
      tiktokDisableComment: "This TikTok account turned comments off in TikTok's settings: a post cannot allow them.",
    });
    expect(tiktok.postsOf().length).toBe(before);

    const made = await publish({ tiktokPrivacyLevel: "SELF_ONLY", tiktokDisableComment: true });
    expect(`${made.status} ${JSON.stringify(made.body.error ?? {})}`).toBe("201 {}");
    const end = Date.now() + 20_000;
    let state = "";
    while (state !== "published" && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const read = await owner.get(`/api/social/posts/${made.body.result.id}?projectId=${projectId}`);
      state = read.body.result.channels[0]?.state ?? "";
    }
    expect(state).toBe("published");
    const posted = tiktok.postsOf().slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.postInfo).toMatchObject({ privacy_level: "SELF_ONLY", disable_comment: true });
  });

  it("disconnects: revokes the grant at TikTok, then deletes the tokens", async () => {
    const gone = await owner.request("DELETE", `/api/integrations/tiktok?projectId=${projectId}`);
    expect(gone.status).toBe(200);
    expect(gone.body.result).toEqual({ revoked: true });
    expect(tiktok.isLive(accessToken)).toBe(false);
  });
});
