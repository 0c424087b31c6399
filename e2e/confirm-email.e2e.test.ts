import { mkdirSync } from "node:fs";
import { linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import type { Browser } from "playwright-core";
import { launchChromium, sidewaysScroll, signedInContext } from "./support";

// The email change's link in Chromium (the shared token-link page): signed in, /confirm-email
// applies the change once, says so with the new address and continues to the account page; the
// used link then says why it cannot be used. At 1366 and 390 px nothing scrolls sideways.
jest.setTimeout(120_000);

const shots = "/tmp/brand";
let browser: Browser;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

it("changes the email from the emailed link once, and says so", async () => {
  const { page, session } = await signedInContext(browser, "confirm-email-e2e", {
    viewport: { width: 1366, height: 850 },
  });
  // A member with a business: without one, the app sends every page to onboarding (/app/welcome).
  const project = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket",
    description: "A family-run bicycle repair shop.",
    audience: "Commuters",
    keywords: ["bike repair"],
    websiteUrl: "spokeandsprocket.example.com",
  });
  expect(project.status).toBe(201);
  const newEmail = uniqueEmail("confirm-email-new");
  const asked = await session.post("/api/settings/email", { newEmail, currentPassword: "password-123" });
  expect(asked.status).toBe(200);
  const link = linkFrom(await waitForEmail(newEmail, "Confirm your new email for Crafter"), "/confirm-email");

  await page.goto(`${link.pathname}${link.search}`);
  const done = page.getByTestId("confirm-email-done");
  await done.getByText(`Sign in with ${newEmail} from now on.`).waitFor();
  for (const [width, height] of [
    [1366, 850],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await sidewaysScroll(page)).toBe(0);
    await page.screenshot({ path: `${shots}/confirm-email-done-${width}.png` });
  }
  await done.getByRole("link", { name: "Continue" }).click();
  await page.waitForURL("**/app/settings/account-info");

  // The same link again: used, and the page says so (no second change).
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByTestId("confirm-email-failed").waitFor();
  await page.screenshot({ path: `${shots}/confirm-email-failed-390.png` });
});
