/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { GatewaySession, linkFrom, stackEnv, waitForEmail } from "@crafter/kit/testing";
import { LocalGoogleBusinessServer, LocalOAuthServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { atBothWidths, choose, launchChromium, signedInContext } from "./support";

// A new user's Google Business Profile in Chromium: connect it from the reviews page through the
// local OAuth server, choose the location, see its reviews with Google's average, draft a reply
// (workflows' generation path) and post it, which the local Google receives.
jest.setTimeout(120_000);

const env = stackEnv();
const oauthBase = new URL(env.GOOGLE_BASE_URL ?? "http://oauth.crafter.test:28045");
const oauth = new LocalOAuthServer({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  account: { sub: "g-9", email: "owner@harbour-cafe.example", name: "Harbour Cafe" },
});
const google = new LocalGoogleBusinessServer({ oauth });

let browser: Browser;
let context: BrowserContext;
let page: Page;

async function adminSession(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

beforeAll(async () => {
  await oauth.start(Number(oauthBase.port));
  await google.start(Number(new URL(env.GOOGLE_BUSINESS_API_URL ?? "http://x:28048").port));
  const account = google.addAccount("8101", "Harbour Cafe Ltd");
  google.addLocation(account, {
    id: "8201",
    title: "Harbour Cafe",
    storefrontAddress: { regionCode: "GB", locality: "Whitby", postalCode: "YO21 3PU", addressLines: ["4 Pier Road"] },
  });
  const at = (day: number) => `2026-02-0${day}T09:30:00Z`;
  google.addReview("8201", {
    reviewId: "hc-1",
    reviewer: { displayName: "Maya Collins" },
    starRating: "FIVE",
    comment: "Best crab sandwich on the coast.",
    createTime: at(3),
    updateTime: at(3),
  });
  google.addReview("8201", {
    reviewId: "hc-2",
    reviewer: { displayName: "Tom Reed" },
    starRating: "THREE",
    comment: "Tasty, but we waited 40 minutes.",
    createTime: at(2),
    updateTime: at(2),
  });
  google.addReview("8201", {
    reviewId: "hc-3",
    reviewer: { displayName: "Ivy Shaw" },
    starRating: "FIVE",
    comment: "Lovely staff.",
    createTime: at(1),
    updateTime: at(1),
    reviewReply: { comment: "Thank you, Ivy!", updateTime: at(2) },
  });
  browser = await launchChromium([`--host-resolver-rules=MAP ${oauthBase.hostname} 127.0.0.1`]);
  let session: GatewaySession;
  ({ context, page, session } = await signedInContext(browser, "gbp-e2e", { viewport: { width: 1366, height: 850 } }));
  expect(
    (await session.post("/api/projects/createProject", { name: "Harbour Cafe", description: "Seafood in Whitby" }))
      .status,
  ).toBe(201);
  const userId = (await session.get("/auth/check")).body.result.user.userId;
  const admin = await adminSession();
  for (const flag of ["google_business_integration", "google_reviews"])
    expect((await admin.put(`/api/admin/users/${userId}/flags`, { flag, enabled: true })).status).toBe(200);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await google.stop();
  await oauth.stop();
});

describe("Google Business Profile reviews", () => {
  it("connects from the reviews page and imports the chosen location's reviews", async () => {
    await page.goto("/app/business/reviews");
    await page.locator('[data-testid="gbp-panel"][data-state="not_connected"]').waitFor({ timeout: 60_000 });
    await page.getByTestId("gbp-connect").click();
    await page.waitForURL("**/app/business/reviews?connected=google_business");
    await page.getByTestId("gbp-return").waitFor();
    await choose(page, "gbp-location-select", "Harbour Cafe");
    await page.getByTestId("gbp-location-save").click();
    await page.getByTestId("gbp-location-title").waitFor();
    expect(await page.getByTestId("gbp-summary").textContent()).toContain("4.3 from 3 reviews on Google");
    await page.locator('[data-testid="review-card"]', { hasText: "Maya Collins" }).waitFor();
    expect(await page.getByTestId("review-card").count()).toBe(3);
    const ivy = page.locator('[data-testid="review-card"]', { hasText: "Ivy Shaw" });
    expect(await ivy.getByTestId("reply-saved").textContent()).toBe("Thank you, Ivy!");
    await atBothWidths(page, "google-business-reviews");
  });

  it("drafts a reply, posts it on Google, and shows it as the reply", async () => {
    const tom = page.locator('[data-testid="review-card"]', { hasText: "Tom Reed" });
    await tom.getByTestId("reply-draft").click();
    await tom.getByTestId("reply-note").waitFor();
    const drafted = await tom.getByTestId("reply-text").inputValue();
    expect(drafted).toContain("Tom");
    await tom.getByTestId("reply-save").click();
    await tom.getByTestId("reply-saved").waitFor();
    expect(google.review("8201", "hc-2")?.reviewReply?.comment).toBe(drafted);
    expect(google.seen.repliesPut).toHaveLength(1);
    await atBothWidths(page, "google-business-replied");
  });
});
