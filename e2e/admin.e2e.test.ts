/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./support";

// Issue 14 in Chromium: only an admin sees Admin; an admin grants credits and turns a flag on for a
// user, and the user sees both; the dashboard, a craft page and settings at 390 px wide have no
// horizontal scroll and the user menu is reachable. The test stack makes every verified address at
// @admins.crafter.test an admin (auth's ADMIN_EMAILS, scripts/stack.mjs).

jest.setTimeout(400_000);

const base = gatewayUrl();
const password = "a long and honest passphrase";
const userEmail = uniqueEmail("admin-e2e-user");
const adminEmail = `admin-e2e-${randomUUID().slice(0, 8)}@admins.crafter.test`;

let browser: Browser;

/** Signs up through the API, verifies from Mailpit and describes a business (the dashboard needs a project). */
async function registered(email: string) {
  const session = new GatewaySession(base);
  expect((await session.post("/auth/signup", { email, password, displayName: "Robin" })).status).toBe(200);
  const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
  expect((await session.post("/auth/verify", { token: link.searchParams.get("token") })).status).toBe(200);
  expect((await session.post("/auth/signin", { email, password })).status).toBe(200);
  const project = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket Bicycle Repair",
    description: "A family-run bicycle repair shop that has kept our town riding since 2009, for every kind of bike.",
    audience: "Commuters and families",
    keywords: ["bike repair"],
    websiteUrl: "spokeandsprocket.example.com",
  });
  expect(project.status).toBe(201);
}

/** A browser context signed in through the sign-in page. */
async function signedIn(
  email: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  await page.goto("/signin", { waitUntil: "domcontentloaded" });
  await page.getByTestId("signin-email").fill(email);
  await page.getByTestId("signin-password").fill(password);
  await page.getByTestId("signin-submit").click();
  await page.waitForURL("**/app/dashboard");
  return { context, page };
}

/** How far the page scrolls sideways (0 when it fits). */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - document.documentElement.clientWidth);

async function credits(page: Page): Promise<number> {
  const tag = page.getByTestId("credits");
  await tag.waitFor();
  return Number(await tag.getAttribute("data-credits"));
}

beforeAll(async () => {
  browser = await launchChromium();
  await Promise.all([registered(userEmail), registered(adminEmail)]);
});

afterAll(async () => {
  await browser?.close();
});

describe("admin", () => {
  it("shows Admin to the admin only; the admin grants credits and turns a flag on, and the user sees both", async () => {
    const user = await signedIn(userEmail);
    await user.page.getByTestId("user-menu").click();
    // The menu opens with an animation: wait for the entry instead of reading its visibility at once.
    await user.page.getByTestId("nav-settings").waitFor();
    expect(await user.page.getByTestId("nav-admin").count()).toBe(0);
    // Opened by its address, Admin is the not-available page, and none of its API is called.
    const adminCalls: string[] = [];
    user.page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/admin")) adminCalls.push(request.url());
    });
    await user.page.goto("/app/admin");
    await user.page.locator('[data-testid="page-not-available"][data-reason="role"]').waitFor();
    await user.page.waitForLoadState("networkidle");
    expect(await user.page.getByTestId("admin-page").count()).toBe(0);
    expect(await user.page.locator(".ant-message-error, .ant-notification-notice-error").count()).toBe(0);
    expect(adminCalls).toEqual([]);
    // A page whose flag is off (leads_assistant, off by default) is the same page, and no menu lists it.
    await user.page.goto("/app/leads-assistant");
    await user.page.locator('[data-testid="page-not-available"][data-reason="flag"]').waitFor();
    expect(await user.page.getByTestId("nav-lead-assistant").count()).toBe(0);
    expect(await user.page.locator(".ant-message-error, .ant-notification-notice-error").count()).toBe(0);
    // Settings › Integrations lists only the integrations whose flag is on: none by default.
    await user.page.goto("/app/settings/integrations");
    await user.page.getByTestId("integrations-empty").waitFor();
    expect(await user.page.getByTestId("integration-shopify").count()).toBe(0);
    const before = await credits(user.page);

    const admin = await signedIn(adminEmail);
    await admin.page.getByTestId("user-menu").click();
    await admin.page.getByTestId("nav-admin").click();
    await admin.page.getByTestId("admin-page").waitFor();
    await admin.page.getByTestId("admin-user-search").locator("input").fill(userEmail);
    await admin.page.getByTestId("admin-user-search").locator("input").press("Enter");
    const row = admin.page.locator(`[data-testid="admin-user-row"][data-email="${userEmail}"]`);
    await row.waitFor();
    await expect(admin.page.getByTestId("admin-user-row").count()).resolves.toBe(1);

    await row.getByTestId("admin-grant-open").click();
    await admin.page.getByTestId("admin-grant-amount").fill("25");
    await admin.page.getByTestId("admin-grant-reason").fill("Thanks for the bug report");
    await admin.page.getByTestId("admin-grant-submit").click();
    await admin.page.getByText(`${userEmail} now has ${before + 25} credits`).waitFor();

    await row.getByTestId("admin-flags-open").click();
    const flag = admin.page.locator('[data-testid="admin-flag-row"][data-flag="shopify_integration"]');
    await flag.getByTestId("admin-flag-switch").click();
    await flag.locator('[data-testid="admin-flag-switch"][aria-checked="true"]').waitFor();

    await admin.page.keyboard.press("Escape");
    await admin.page.goto("/app/admin?tab=audit");
    await admin.page.getByTestId("audit-row").first().waitFor();
    const audit = await admin.page.getByTestId("audit-row").allInnerTexts();
    expect(audit.some((text) => text.includes("credits.grant") && text.includes(adminEmail))).toBe(true);
    expect(audit.some((text) => text.includes("flag.set"))).toBe(true);

    await user.page.reload();
    await user.page.getByTestId("integration-shopify").waitFor();
    expect(await credits(user.page)).toBe(before + 25);
    await Promise.all([user.context.close(), admin.context.close()]);
  });
});

describe("phones (390 px)", () => {
  it("has no horizontal scroll on the dashboard, a craft page and settings, and the user menu is on screen", async () => {
    const { context, page } = await signedIn(userEmail, { width: 390, height: 844 });
    expect(await overflowOf(page)).toBe(0);
    const menu = await page.getByTestId("user-menu").boundingBox();
    expect(menu).not.toBeNull();
    expect(menu!.x).toBeGreaterThanOrEqual(0);
    expect(menu!.x + menu!.width).toBeLessThanOrEqual(390);
    await page.getByTestId("user-menu").click();
    await page.getByTestId("nav-settings").click();
    await page.waitForURL("**/app/settings");
    expect(await overflowOf(page)).toBe(0);

    await page.goto("/app/crafts/BlogWriter");
    await page.getByTestId("craft-page").waitFor();
    expect(await overflowOf(page)).toBe(0);

    for (const path of ["/app/crafts", "/app/settings/linked-devices", "/app/settings/integrations"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect({ path, overflow: await overflowOf(page) }).toEqual({ path, overflow: 0 });
    }
    await context.close();
  });
});
