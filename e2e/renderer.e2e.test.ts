import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium } from "./support";

// The generic renderer against the engine's hidden EngineCheck workflow (test stack only,
// WORKFLOWS_TEST_FIXTURES): live showWhen, a skipped step, "generate more" up to ReachedMaxResults,
// an IteratorStep's items, a media step (done on open, its action offered), and inline text generation with a command.

const base = gatewayUrl();
const email = uniqueEmail("renderer");
const password = "a long and honest passphrase";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ baseURL: base })).newPage();
  page.setDefaultTimeout(60_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("renderer", () => page);

/** Waits until no generation is running on the page (the live draft panel is gone or finished). */
async function settled() {
  await page.waitForFunction(
    () => {
      const output = document.querySelector('[data-testid="stream-output"]');
      return !output || ["done", "failed"].includes(output.getAttribute("data-state") ?? "");
    },
    undefined,
    { timeout: 120_000 },
  );
}

describe("the generic renderer on the engine's EngineCheck workflow", () => {
  step("signs in with a project", async () => {
    const session = new GatewaySession(base);
    await session.post("/auth/signup", { email, password, displayName: "Robin" });
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    await session.post("/auth/verify", { token: link.searchParams.get("token") });
    await session.post("/auth/signin", { email, password });
    const project = await session.post("/api/projects/createProject", {
      name: "Spoke & Sprocket",
      description: "A family-run bicycle repair shop that builds wheels by hand.",
    });
    expect(project.status).toBe(201);
    await page.goto("/signin");
    await page.getByTestId("signin-email").fill(email);
    await page.getByTestId("signin-password").fill(password);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/dashboard");
  });

  step("shows the subject only for email (showWhen, live) and skips the blog extras", async () => {
    await page.goto("/app/crafts/EngineCheck");
    await page.getByTestId("step-form-brief").waitFor();
    expect(await page.getByTestId("input-subject").count()).toBe(0);
    await page.getByTestId("input-channel").click();
    await page.locator(".ant-select-dropdown .ant-select-item-option").filter({ hasText: "Email" }).click();
    await page.getByTestId("input-subject").waitFor();
    await page.getByTestId("input-topic").fill("Wheel truing");
    await page.getByTestId("input-subject").fill("Truing week");
    await page.getByTestId("complete-step").click();
    // Completing the draft's first step stores the craft (issue 12) and reopens it by id.
    await page.waitForURL(/craftId=/, { timeout: 90_000 });
    await settled();
    await page
      .locator(".ant-steps-item:not(.ant-steps-item-disabled)")
      .filter({ has: page.getByTestId("step-tab-extra") })
      .click();
    await page.locator('[data-testid="step-panel-extra"][data-step-state="skipped"]').waitFor();
  });

  step("generates more results until ReachedMaxResults", async () => {
    await page.getByTestId("step-tab-brief").click();
    await page.getByTestId("show-results").click();
    await page.getByTestId("result-count").filter({ hasText: "1 / 2 results" }).waitFor();
    await page.getByTestId("generate-more-brief").click();
    await settled();
    await page.getByTestId("result-count").filter({ hasText: "2 / 2 results" }).waitFor();
    await page.getByTestId("generate-more-brief").click();
    await page.locator(".ant-modal").filter({ hasText: "Maximum result limit reached." }).waitFor();
    await page.locator(".ant-modal").getByRole("button").last().click();
  });

  step("runs the IteratorStep once per outline item and offers the media step's action", async () => {
    await page.getByTestId("step-tab-sections").click();
    await page.getByTestId("step-form-sections").waitFor();
    await page.getByTestId("complete-step").click();
    await settled();
    await page.getByTestId("step-tab-sections").click();
    await page.getByTestId("iterator-item").first().waitFor();
    expect(await page.getByTestId("iterator-item").count()).toBeGreaterThanOrEqual(2);
    await page.getByTestId("step-tab-picture").click();
    await page.locator('[data-testid="step-panel-picture"][data-step-state="completed"]').waitFor();
    await page.getByTestId("generate-more-picture").filter({ hasText: "Add pictures" }).waitFor();
  });

  step("writes the editor text inline, then shortens it with a command", async () => {
    await page.getByTestId("step-tab-editor").click();
    await page.getByTestId("step-form-editor").waitFor();
    await page.getByTestId("generate-body").click();
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-testid="input-body"]') as HTMLTextAreaElement | null;
      return !!box && box.value.trim().length > 0 && !box.disabled;
    });
    await page.getByTestId("command-shorten").click();
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-testid="input-body"]') as HTMLTextAreaElement | null;
      return !!box && box.value.trim().length > 0 && box.value.length <= 80;
    });
  });
});
