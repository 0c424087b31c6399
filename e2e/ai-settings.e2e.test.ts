/// <reference lib="dom" />
import type { GatewaySession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type FakeAi, startFakeAi } from "../services/workflows/test/fake-ai-server";
import { browserStep, launchChromium, signedInContext } from "./support";

// Issue 12's AI settings and brand voice in Chromium: an owner tests a bad and a good key against
// the local OpenAI-compatible fake, saves, sees only the key's last 4 characters, and sets the
// project's brand voice on the business profile page.

jest.setTimeout(300_000);

const GOOD_KEY = "sk-good-e2e-key-7788";

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let fake: FakeAi;
const step = browserStep("ai-settings", () => page);

beforeAll(async () => {
  fake = await startFakeAi(0);
  browser = await launchChromium();
  ({ context, page, session } = await signedInContext(browser, "ai-settings-e2e"));
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co",
    description: "A small bakery baking rye and spelt loaves every morning.",
  });
  expect(project.status).toBe(201);
  // signedInContext's browser is signed in: the app opens without the sign-in form.
  await page.goto("/app/dashboard");
  await page.getByTestId("dashboard").waitFor();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await fake?.close();
});

describe("the AI settings page and the brand voice", () => {
  step("Settings links to AI settings for an owner", async () => {
    await page.goto("/app/settings");
    await page.getByTestId("settings-link-ai").click();
    await page.waitForURL("**/app/settings/ai");
    await page.getByRole("heading", { name: "AI settings" }).waitFor();
  });

  step("Test connection reports a bad key in plain words, then a good one works", async () => {
    await page.getByTestId("ai-provider").click();
    await page.getByTitle("OpenAI-compatible (Ollama, vLLM, LM Studio…)").click();
    await page.getByTestId("ai-base-url").fill(fake.baseURL);
    await page.getByTestId("ai-default-model").fill("fake-default");
    await page.getByTestId("ai-api-key").fill("sk-bad-e2e-key-1234");
    await page.getByTestId("ai-test").click();
    await page.getByTestId("ai-test-result").getByText("Connection failed").waitFor();
    await expect(page.getByTestId("ai-test-result").textContent()).resolves.toContain(
      "The provider refused the API key (HTTP 401)",
    );
    await page.getByTestId("ai-api-key").fill(GOOD_KEY);
    await page.getByTestId("ai-test").click();
    await page.getByTestId("ai-test-result").getByText("Connection works").waitFor();
  });

  step("saving shows only that a key is set and its last 4 characters", async () => {
    await page.getByTestId("ai-save").click();
    await page.getByTestId("ai-key-set").getByText("ends in 7788").waitFor();
    await page.reload();
    await page.getByTestId("ai-key-set").waitFor();
    expect(await page.getByTestId("ai-api-key").inputValue()).toBe("");
    expect(await page.content()).not.toContain(GOOD_KEY);
  });

  step("the business profile page keeps the brand voice", async () => {
    await page.goto("/app/business/profile");
    await page.getByTestId("brand-tone").fill("warm and plain-spoken");
    await page.locator("#brand-words-to-avoid").fill("cheap");
    await page.locator("#brand-words-to-avoid").press("Enter");
    await page.getByTestId("brand-example").fill("Loaves baked before you wake.");
    await page.getByTestId("brand-voice-save").click();
    await page.getByText("Brand voice saved").waitFor();
    await page.reload();
    await expect(page.getByTestId("brand-tone").inputValue()).resolves.toBe("warm and plain-spoken");
    await page.getByTestId("brand-words-to-avoid").getByText("cheap").waitFor();
  });
});
