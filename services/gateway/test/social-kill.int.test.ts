import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  GatewaySession,
  gatewayUrl,
  killHard,
  linkFrom,
  repoRoot,
  stackEnv,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { LocalMetaGraph } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { complete, W } from "./craft-steps";

// kill -9 of the notifications process at a random moment while it publishes a post to a Page and
// to Instagram, then a restart: each channel ends published exactly once, counted by the local
// Graph API, whatever the moment (before the call, while Meta makes the post, after it answered
// but before the outcome was recorded). Meta takes PUBLISH_DELAY_MS to make each post, so many
// kills land while a post is being made. RUNS=20 repeats it (reported figures); the suite runs one.
const RUNS = Number(process.env.RUNS ?? 1);
const PUBLISH_DELAY_MS = 400;
jest.setTimeout(60_000 + RUNS * 45_000);

const env = stackEnv();
const graph = new LocalMetaGraph({
  clientId: env.META_CLIENT_ID ?? "",
  clientSecret: env.META_CLIENT_SECRET ?? "",
  processingMs: 100,
});
const PAGE = "facebook_page:101000000000001";
const INSTAGRAM = "instagram:17841400000000001";
const stackDir = join(repoRoot, ".data/stack/test");

let owner: GatewaySession;
let projectId: string;

async function admin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

async function socialCraft(topic: string): Promise<string> {
  const craftId = (await owner.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
  await complete(owner, craftId, "brief", { network: "instagram", topic });
  await complete(owner, craftId, "imageIdeas", { subject: "A bicycle" });
  expect((await owner.post(`${W}/${craftId}/image/ImageAppender`, { params: {} })).status).toBe(200);
  return craftId;
}

/** The post's channel states; null while the gateway cannot reach notifications (restarting). */
async function states(postId: string): Promise<Record<string, string> | null> {
  const answer = await owner.get(`/api/social/posts/${postId}?projectId=${projectId}`);
  if (answer.status !== 200) return null;
  return Object.fromEntries(
    (answer.body.result.channels as { channelId: string; state: string }[]).map((c) => [c.channelId, c.state]),
  );
}

/**
 * Starts the killed service again; a stack slow to come up (a loaded machine) is given a second
 * try. Not execFileSync: the local Graph API runs in this process and must go on making the post it
 * was asked for while the stack restarts, as Meta would.
 */
async function restart(): Promise<void> {
  const up = () => promisify(execFile)("node", ["scripts/stack.mjs", "up", "--profile", "test"], { cwd: repoRoot });
  await up().catch(up);
}

beforeAll(async () => {
  await graph.start(Number(new URL(env.META_BASE_URL ?? "http://x:28046").port));
  const [{ session }, boss] = await Promise.all([verifiedSession("social-kill"), admin()]);
  owner = session;
  projectId = (await owner.post("/api/projects/createProject", { name: "Town Bikes", description: "Bikes" })).body
    .result.project.projectId;
  const ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  for (const flag of ["meta_integration", "direct_publish_social_media"])
    expect((await boss.put(`/api/admin/users/${ownerId}/flags`, { flag, enabled: true })).status).toBe(200);
  const started = await owner.post(`/api/integrations/meta/connect?projectId=${projectId}`, {});
  const dialog = new URL(started.body.result.authorizeUrl);
  dialog.hostname = "127.0.0.1";
  const callback = (await fetch(dialog, { redirect: "manual" })).headers.get("location")!;
  await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), { redirect: "manual" });
  expect(
    (await owner.put(`/api/social/channels?projectId=${projectId}`, { channelIds: [PAGE, INSTAGRAM] })).status,
  ).toBe(200);
  graph.publishDelayMs = PUBLISH_DELAY_MS;
});

afterAll(() => graph.stop());

describe("kill -9 while publishing", () => {
  it(`never publishes a post twice on a channel (${RUNS} run${RUNS === 1 ? "" : "s"})`, async () => {
    for (let run = 1; run <= RUNS; run++) {
      const craftId = await socialCraft(`Ride number ${run} ${randomUUID().slice(0, 6)}`);
      const made = await owner.post(`/api/social/posts?projectId=${projectId}`, {
        craftId,
        publishAt: new Date().toISOString(),
      });
      expect(made.status).toBe(201);
      const text = made.body.result.text as string;
      // A random moment within the publishing of both channels (the Page's post, Instagram's container and publish).
      const after = Math.floor(Math.random() * 1500);
      await new Promise((resolve) => setTimeout(resolve, after));
      const before = graph.allPosts().filter((p) => p.message === text).length;
      await killHard(Number(readFileSync(join(stackDir, "notifications.pid"), "utf8")));
      const killedAt = Date.now();
      await restart();
      const end = Date.now() + 40_000;
      let seen: Record<string, string> | null = null;
      while (Date.now() < end) {
        seen = await states(made.body.result.id);
        if (seen && Object.values(seen).every((s) => s === "published")) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const page = graph.published("101000000000001").filter((p) => p.message === text).length;
      const instagram = graph.published("17841400000000001").filter((p) => p.message === text).length;
      // Each run's figures as it ends, so a long RUNS=20 run reports what it measured even if it stops.
      process.stdout.write(
        `run ${run}: killed ${after} ms after the request (${before} post(s) made by then), ` +
          `both published ${Date.now() - killedAt} ms after the kill; Page ${page}, Instagram ${instagram}\n`,
      );
      expect(seen).toEqual({ [PAGE]: "published", [INSTAGRAM]: "published" });
      expect([page, instagram]).toEqual([1, 1]);
    }
  });
});
