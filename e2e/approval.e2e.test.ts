/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { type GatewaySession, gatewayUrl } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserStep, choose, launchChromium, sidewaysScroll, signedInContext } from "./support";

// An approval link in Chromium: the owner shares a campaign from its page ("Share for approval"),
// a reviewer without an account opens the link on a phone, asks for changes and approves; the
// owner's page shows the state and the comments, and a revoked link says so at once.
jest.setTimeout(120_000);

const shots = "/tmp/approval";
const run = randomUUID().slice(0, 8);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 850 };

let browser: Browser;
let owner: { context: BrowserContext; page: Page; session: GatewaySession };
let reviewer: { context: BrowserContext; page: Page };
let campaignId: string;
let reviewPath: string;

/** The page the running step works on: the one a failure's screenshot is taken of. */
let active: Page | undefined;
const step = browserStep("approval", () => active);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  owner = await signedInContext(browser, "approval-e2e", { viewport: DESKTOP });
  const project = await owner.session.post("/api/projects/createProject", {
    name: "Leeds Bikes",
    description: "A bicycle shop in north-west Leeds that repairs, sells and rents bikes and e-bikes.",
  });
  expect(project.status).toBe(201);
  const campaign = await owner.session.post("/api/email/campaigns", {
    name: `Spring service ${run}`,
    subject: 'Spring tune-ups, {{contact.firstName | "friend"}}',
    preheader: "Book before the rush",
    html: '<h1>Spring is here</h1><p>Hi {{contact.firstName | "friend"}}, book a tune-up this month.</p>',
  });
  expect(campaign.status).toBe(201);
  campaignId = campaign.body.result.id;
  const context = await browser.newContext({ baseURL: gatewayUrl(), viewport: PHONE });
  reviewer = { context, page: await context.newPage() };
  reviewer.page.setDefaultTimeout(30_000);
});

afterAll(async () => {
  await reviewer?.context.close();
  await owner?.context.close();
  await browser?.close();
});

describe("an approval link", () => {
  step("the owner makes a link from the campaign's page", async () => {
    const { page } = owner;
    active = page;
    await page.goto(`/app/email/campaigns/${campaignId}`);
    await page.getByTestId("share-for-approval").click();
    const dialog = page.getByTestId("share-dialog");
    await dialog.getByTestId("reviewer-name").fill("Dana");
    await page.screenshot({ path: `${shots}/share-form-1366.png` });
    await dialog.getByTestId("reviewer-email").fill(`dana-${run}@review.test`);
    await dialog.getByTestId("create-review-link").click();
    const url = await dialog.getByTestId("review-url").inputValue();
    expect(url).toMatch(/\/review\/[A-Za-z0-9_-]{43}$/);
    reviewPath = new URL(url).pathname;
    await expect(dialog.getByTestId("approval-link").first().getAttribute("data-status")).resolves.toBe("active");
    // The link went to the reviewer by email, and the dialog says so.
    await expect(dialog.getByTestId("share-email-status").textContent()).resolves.toBe(
      `Emailed to dana-${run}@review.test`,
    );
    await page.screenshot({ path: `${shots}/share-dialog-1366.png` });
    await page.setViewportSize(PHONE);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/share-dialog-390.png` });
    await page.keyboard.press("Escape");
  });

  step("a reviewer without an account reads it, asks for changes and approves", async () => {
    const { page } = reviewer;
    active = page;
    await page.goto(reviewPath);
    await expect(page.getByTestId("review-title").textContent()).resolves.toBe(`Spring service ${run}`);
    await expect(page.getByTestId("review-subject").textContent()).resolves.toBe("Spring tune-ups, friend");
    const frame = page.getByTestId("review-email-frame");
    expect(await frame.getAttribute("sandbox")).not.toContain("allow-scripts");
    await expect(page.frameLocator('[data-testid="review-email-frame"]').locator("h1").textContent()).resolves.toBe(
      "Spring is here",
    );
    // The name the sender gave the reviewer, until they type their own.
    expect(await page.getByTestId("review-name").inputValue()).toBe("Dana");
    await page.getByTestId("review-request-changes").click();
    await page.getByText("Say what should change").waitFor();
    await page.getByTestId("review-comment").fill("Please add the price of a tune-up.");
    await page.getByTestId("review-request-changes").click();
    await page.locator('[data-testid="review-state"]', { hasText: "Changes requested" }).waitFor();
    await page.getByTestId("review-approve").click();
    await page.locator('[data-testid="review-state"]', { hasText: "Approved" }).waitFor();
    expect(await page.getByTestId("approval-event").count()).toBe(2);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/review-390.png` });
    await page.setViewportSize(DESKTOP);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/review-1366.png` });
  });

  step("the owner sees the state and comments, revokes, and the link stops at once", async () => {
    const { page } = owner;
    active = page;
    await page.setViewportSize(DESKTOP);
    await page.goto(`/app/email/campaigns/${campaignId}`);
    const summary = page.getByTestId("approval-summary");
    await summary.getByText("Approved").first().waitFor();
    await summary.getByText("Please add the price of a tune-up.").waitFor();
    await expect(page.getByTestId("approval-state").textContent()).resolves.toBe("Approved");
    await page.screenshot({ path: `${shots}/campaign-approved-1366.png` });
    await page.setViewportSize(PHONE);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/campaign-approved-390.png` });
    // The campaigns list tags it with its state and reviewer.
    await page.goto("/app/email/campaigns");
    const row = page.locator("tr", { hasText: `Spring service ${run}` });
    await expect(row.getByTestId("approval-state-tag").textContent()).resolves.toBe("Approved · Dana");
    await choose(page, "approval-filter", "Changes requested");
    await page.getByTestId("campaigns-none-match").waitFor();
    await choose(page, "approval-filter", "Approved");
    await row.waitFor();
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/campaigns-list-390.png` });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: `${shots}/campaigns-list-1366.png` });
    await page.goto(`/app/email/campaigns/${campaignId}`);
    await page.getByTestId("share-for-approval").click();
    await page.getByTestId("revoke-link").click();
    await page.getByTestId("confirm-revoke").click();
    await page.locator('[data-testid="approval-link"][data-status="revoked"]').waitFor();

    active = reviewer.page;
    await reviewer.page.reload();
    await reviewer.page.getByTestId("review-gone").waitFor();
    await reviewer.page.screenshot({ path: `${shots}/review-gone-1366.png` });
    await reviewer.page.goto(`${reviewPath.slice(0, -3)}abc`);
    await reviewer.page.getByTestId("review-invalid").waitFor();
    await reviewer.page.setViewportSize(PHONE);
    await reviewer.page.screenshot({ path: `${shots}/review-invalid-390.png` });
  });
});
