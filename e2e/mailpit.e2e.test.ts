import { gatewayUrl, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium } from "./support";

// The README sends a new user to Mailpit's web UI to read the verification email. Mailpit's Go
// module ships the UI's sources but not the built assets, so scripts/infra builds them; this
// checks that the UI a person opens really lists the mail the app sent.

const base = gatewayUrl();
const mailpit = stackEnv().MAILPIT_API_URL || "http://127.0.0.1:8025";
const email = uniqueEmail("mailbox");

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ baseURL: base })).newPage();
  page.setDefaultTimeout(30_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("mailpit", () => page);

describe("a new user reads the verification email in Mailpit's web UI", () => {
  step("signs up in the app", async () => {
    await page.goto("/signup");
    await page.getByTestId("signup-name").fill("Sam");
    await page.getByTestId("signup-email").fill(email);
    await page.getByTestId("signup-password").fill("a long and honest passphrase");
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-success").waitFor();
    // Delivered (per Mailpit's API) before the UI is judged, so a miss below is the UI's.
    await waitForEmail(email, "Verify your email");
  });

  step("finds the mail listed in Mailpit at its HTTP address", async () => {
    await page.goto(mailpit);
    await page.getByPlaceholder("Search mailbox").fill(`to:"${email}"`);
    await page.getByPlaceholder("Search mailbox").press("Enter");
    const row = page.locator("a.message").filter({ hasText: email });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await expect(row.first().textContent()).resolves.toContain("Verify your email");
  });

  step("opens it and sees the verification link", async () => {
    await page.locator("a.message").filter({ hasText: email }).first().click();
    const link = page.frameLocator("#preview-html").locator('a[href*="/verify"]').first();
    await link.waitFor();
    const href = await link.getAttribute("href");
    expect(new URL(href ?? "").origin).toBe(new URL(base).origin);
  });
});
