import { gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium } from "./support";

// The walking skeleton's six steps in Debian's Chromium against the stack started as by the
// README: sign up, verify from the email in Mailpit, sign in, describe the business, craft a blog
// post watching the draft stream in, find it again after a reload — then sign out.

const base = gatewayUrl();
const email = uniqueEmail("e2e");
const password = "a long and honest passphrase";

// The about text of a real kind of local business (a bicycle repair shop), as a user would paste it.
const business = {
  name: "Spoke & Sprocket Bicycle Repair",
  description:
    "Spoke & Sprocket is a family-run bicycle repair shop that has kept our town riding since 2009. " +
    "We service road, gravel, mountain and cargo bikes, build wheels by hand, fit e-bike conversion kits " +
    "and run free Saturday classes on fixing a flat and adjusting gears.",
  audience: "Commuters, weekend riders and families who ride every day",
  keywords: ["bike repair", "wheel building", "e-bike service"],
  website: "spokeandsprocket.example.com",
};

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

const step = browserStep("blog-post", () => page);

/** Samples the streamed text while it streams; returns the distinct lengths seen. */
async function watchStream(target: Page): Promise<number[]> {
  await target.getByTestId("stream-output").waitFor({ state: "visible" });
  const lengths: number[] = [];
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    // One non-waiting read per tick: the panel goes away once the result is saved.
    const sample = await target.evaluate(() => {
      const output = document.querySelector('[data-testid="stream-output"]');
      return output ? { state: output.getAttribute("data-state"), length: (output.textContent ?? "").length } : null;
    });
    if (!sample) break;
    if (sample.length > 0 && lengths.at(-1) !== sample.length) lengths.push(sample.length);
    if (sample.state === "done" || sample.state === "failed") break;
    await target.waitForTimeout(50);
  }
  return lengths;
}

describe("a marketer crafts a blog post end to end", () => {
  step("1. signs up", async () => {
    await page.goto("/signup");
    await page.getByTestId("signup-name").fill("Robin");
    await page.getByTestId("signup-email").fill(email);
    await page.getByTestId("signup-password").fill(password);
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-success").waitFor();
  });

  step("2. receives the verification email and verifies", async () => {
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    expect(link.origin).toBe(new URL(base).origin);
    await page.goto(link.pathname + link.search);
    await page.getByTestId("verify-success").waitFor();
  });

  step("3. signs in and lands in onboarding", async () => {
    await page.getByTestId("verify-signin-link").click();
    await page.getByTestId("signin-email").fill(email);
    await page.getByTestId("signin-password").fill(password);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/welcome");
  });

  step("4. describes the business", async () => {
    await page.getByTestId("welcome-name").fill(business.name);
    await page.getByTestId("welcome-description").fill(business.description);
    await page.getByTestId("welcome-audience").fill(business.audience);
    const keywords = page.getByTestId("welcome-keywords").locator("input").first();
    for (const keyword of business.keywords) {
      await keywords.fill(keyword);
      await keywords.press("Enter");
    }
    await page.getByTestId("welcome-website").fill(business.website);
    await page.getByTestId("welcome-submit").click();
    await page.waitForURL("**/app/dashboard");
    await expect(page.getByTestId("project-title").textContent()).resolves.toContain(business.name);
  });

  step("5. crafts a blog post with BlogWriter, watching the draft stream in", async () => {
    await page.getByTestId("dashboard-new-blog-post").click();
    // Opening a workflow stores nothing (a draft); completing its first step stores the craft.
    await page.waitForURL(/\/app\/crafts\/BlogWriter/);
    await page.getByTestId("step-form-topic").waitFor();
    await page.getByTestId("input-topic").fill("How a yearly wheel truing keeps your bike safe");
    const keywords = page.getByTestId("input-keywords").locator("input").first();
    await keywords.fill("wheel truing");
    await keywords.press("Enter");
    await page.getByTestId("complete-step").click();
    await page.waitForURL(/\/app\/crafts\/BlogWriter\?craftId=/, { timeout: 60_000 });

    await page.getByTestId("step-form-outline").waitFor({ timeout: 60_000 });
    await page.getByTestId("complete-step").click();
    const lengths = await watchStream(page);
    // The draft arrived in several growing pieces, not all at once.
    expect(lengths.length).toBeGreaterThan(3);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));

    const draft = page.getByTestId("final-draft");
    await draft.waitFor({ timeout: 60_000 });
    const text = (await draft.textContent()) ?? "";
    expect(text).toContain("wheel truing");
    expect(text).toContain("Spoke & Sprocket");
    await expect(page.getByTestId("result-note").textContent()).resolves.toMatch(/offline/i);
  });

  step("6. finds the blog post again after a reload", async () => {
    const craftUrl = page.url();
    await page.reload();
    await page.getByTestId("final-draft").waitFor();
    expect(await page.getByTestId("final-draft").textContent()).toContain("wheel truing");

    await page.goto("/app/crafts");
    const row = page.getByTestId("craft-row").first();
    await row.waitFor();
    await row.getByTestId("craft-link").click();
    await page.waitForURL(`**${new URL(craftUrl).pathname}*`);
    await page.getByTestId("final-draft").waitFor();
  });

  step("signs out, and /app then sends it to /signin", async () => {
    await page.getByTestId("user-menu").click();
    await page.getByTestId("nav-signout").click();
    await page.waitForURL((url) => !url.pathname.startsWith("/app"));
    await page.goto("/app");
    await page.waitForURL("**/signin?callbackUrl=*");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toMatch(/^\/app/);
  });
});
