/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { GatewaySession, linkFrom, stackEnv, waitForEmail } from "@crafter/kit/testing";
import { LocalMetaGraph } from "@crafter/provider-fakes";
import { addDays, dayIn } from "@crafter/time";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { complete, W } from "../services/gateway/test/craft-steps";
import { atBothWidths, browserStep, launchChromium, signedInContext } from "./support";

// The calendar as the publishing desk, in Chromium, as a new user: connect Meta through the local
// Graph API from Settings › Integrations, tick a Page and its Instagram account, publish a crafted
// post with its image from the craft's Publish dialog at a time (tomorrow 09:00, then brought to a
// few seconds from now through the API so the test stays short), see it on the calendar with a chip
// per channel turning published, and open it for the links to both posts. A post Meta refuses
// stands out as failed with Meta's reason, and Retry publishes it.
jest.setTimeout(120_000);

const env = stackEnv();
const graphBase = new URL(env.META_BASE_URL ?? "http://graph.crafter.test:28046");
const graph = new LocalMetaGraph({
  clientId: env.META_CLIENT_ID ?? "",
  clientSecret: env.META_CLIENT_SECRET ?? "",
  processingMs: 200,
});
const PAGE_ID = "101000000000001";
const INSTAGRAM_ID = "17841400000000001";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let projectId: string;
let craftId: string;
let crafted: Promise<string>;
let postId: string;
const step = browserStep("social-desk", () => page);

async function adminSession(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const admin = new GatewaySession();
  await admin.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return admin;
}

/** A social craft with its post written (offline generation) and, when asked, its image made. */
async function socialCraft(topic: string, image: boolean): Promise<string> {
  const id = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
  await complete(session, id, "brief", { network: "instagram", topic });
  if (image) {
    await complete(session, id, "imageIdeas", { subject: "A red bicycle by a bakery" });
    expect((await session.post(`${W}/${id}/image/ImageAppender`, { params: {} })).status).toBe(200);
  }
  return id;
}

/** The calendar event of a post, in the month view. */
const eventOf = (entryId: string) => page.locator(`[data-testid="calendar-event"][data-entry-id="${entryId}"]`);

beforeAll(async () => {
  await graph.start(Number(graphBase.port));
  browser = await launchChromium([`--host-resolver-rules=MAP ${graphBase.hostname} 127.0.0.1`]);
  const [signedIn, admin] = await Promise.all([
    signedInContext(browser, "social-desk", { viewport: { width: 1366, height: 850 } }),
    adminSession(),
  ]);
  ({ context, page, session } = signedIn);
  const created = await session.post("/api/projects/createProject", {
    name: "Town Bikes",
    description: "Bikes for the town",
  });
  expect(created.status).toBe(201);
  projectId = created.body.result.project.projectId;
  const userId = (await session.get("/auth/check")).body.result.user.userId;
  for (const flag of ["meta_integration", "direct_publish_social_media"])
    expect((await admin.put(`/api/admin/users/${userId}/flags`, { flag, enabled: true })).status).toBe(200);
  // Crafted while the browser connects Meta.
  crafted = socialCraft("Spring tune-ups are back", true);
  crafted.catch(() => undefined);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await graph.stop();
});

describe("the publishing desk", () => {
  step("connects Meta and picks a Page and its Instagram account", async () => {
    await page.goto("/app/settings/integrations");
    await page.getByTestId("integration-connect-meta").click();
    await page.waitForURL("**/app/settings/integrations?connected=meta");
    await page.getByTestId("social-channels-meta").waitFor();
    await page.getByTestId(`social-channel-facebook_page:${PAGE_ID}`).click();
    await page.getByTestId(`social-channel-instagram:${INSTAGRAM_ID}`).click();
    await page.getByTestId("social-channels-save-meta").click();
    await page.getByText("Saved where posts go").waitFor();
    expect(graph.seen.longLivedExchanges).toBe(1);
  });

  step("schedules the crafted post from its Publish dialog, and sees it on the calendar", async () => {
    craftId = await crafted;
    await page.goto(`/app/crafts/SocialMediaPostWriter?craftId=${craftId}`);
    await page.getByTestId("publish-social").click();
    await page.getByTestId("publish-social-form").waitFor();
    expect(await page.getByTestId(`publish-channel-facebook_page:${PAGE_ID}`).isChecked()).toBe(true);
    expect(await page.getByTestId(`publish-channel-instagram:${INSTAGRAM_ID}`).isChecked()).toBe(true);
    await page.getByTestId("publish-when").getByText("At a time").click();
    await page.getByTestId("publish-social-ok").click();
    await page.getByTestId("publish-social-summary").waitFor();
    expect(await page.getByTestId("publish-social-summary").textContent()).toContain("Town Bikes, @townbikes");
    await page.getByTestId("publish-social-ok").click();
    await page.getByText("Scheduled", { exact: true }).waitFor();

    const entries = await session.get(
      `/api/calendar?projectId=${projectId}&from=${new Date().toISOString()}&to=${new Date(Date.now() + 3 * 86_400_000).toISOString()}`,
    );
    const entry = entries.body.result.find((e: { craftId?: string }) => e.craftId === craftId);
    expect(entry.channels.map((c: { state: string }) => c.state)).toEqual(["scheduled", "scheduled"]);
    postId = entry.socialPostId;
    const day = dayIn(new Date(entry.dateTime), "UTC");
    await page.goto(`/app/calendar?date=${day}`);
    const event = eventOf(postId);
    await event.waitFor();
    expect(await event.locator('[data-testid="calendar-channel-chip"][data-state="scheduled"]').count()).toBe(2);
    expect(await event.getByRole("img", { name: "Town Bikes (Facebook Page): Scheduled" }).count()).toBe(1);
    await atBothWidths(page, "social-desk-scheduled");

    // Dragged to the next day: the post moves with its entry.
    const before = new Date(entry.dateTime).getTime();
    await event.dragTo(page.locator(`td.fc-daygrid-day[data-date="${addDays(day, 1)}"]`));
    await page.getByText("Moved", { exact: true }).waitFor();
    const moved = await session.get(`/api/social/posts/${postId}?projectId=${projectId}`);
    expect(new Date(moved.body.result.publishAt).getTime() - before).toBe(86_400_000);
  });

  step("sees it published on both channels, with links to the posts", async () => {
    // Brought to a few seconds from now, so the test does not wait for tomorrow.
    const soon = new Date(Date.now() + 4000);
    const drag = await session.request("PATCH", `/api/calendar/${postId}?projectId=${projectId}`, {
      dateTime: soon.toISOString(),
    });
    expect(drag.status).toBe(200);
    await page.goto(`/app/calendar?date=${dayIn(soon, "UTC")}`);
    const event = eventOf(postId);
    // The calendar asks again once its time has come, and while it publishes.
    await event.locator('[data-testid="calendar-channel-chip"][data-state="published"]').nth(1).waitFor();
    expect(graph.published(PAGE_ID)).toHaveLength(1);
    expect(graph.published(INSTAGRAM_ID)).toHaveLength(1);
    await event.click();
    const panel = page.getByTestId("social-channel-states");
    await panel.waitFor();
    const links = await panel
      .getByTestId("social-channel-link")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).toEqual([graph.published(PAGE_ID)[0]!.permalink, graph.published(INSTAGRAM_ID)[0]!.permalink]);
    await atBothWidths(page, "social-desk-published");
    // Started: it no longer moves.
    const refused = await session.request("PATCH", `/api/calendar/${postId}?projectId=${projectId}`, {
      dateTime: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(refused.status).toBe(409);
  });

  step("shows a refused post as failed with Meta's reason, and Retry publishes it", async () => {
    const textOnly = await socialCraft("Puncture clinic tonight", false);
    graph.refuseNext(1, {
      status: 400,
      message: "(#200) The user hasn't authorized the application",
      type: "OAuthException",
      code: 200,
    });
    const made = await session.post(`/api/social/posts?projectId=${projectId}`, {
      craftId: textOnly,
      channelIds: [`facebook_page:${PAGE_ID}`],
      publishAt: new Date().toISOString(),
    });
    expect(made.status).toBe(201);
    await page.goto(`/app/calendar?date=${dayIn(new Date(), "UTC")}`);
    const event = eventOf(made.body.result.id);
    await event.locator('[data-testid="calendar-channel-chip"][data-state="failed"]').waitFor();
    expect(await event.textContent()).toContain("Failed:");
    expect(await event.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(207, 19, 34)");
    await atBothWidths(page, "social-desk-failed");
    await event.click();
    const row = page.locator('[data-testid="social-channel-state"][data-state="failed"]');
    expect(await row.getByTestId("social-channel-reason").textContent()).toBe(
      "(#200) The user hasn't authorized the application",
    );
    await row.getByTestId("social-channel-retry").click();
    await page.locator('[data-testid="social-channel-state"][data-state="published"]').waitFor();
    expect(graph.published(PAGE_ID).filter((p) => p.message.includes("puncture clinic"))).toHaveLength(1);
  });
});
