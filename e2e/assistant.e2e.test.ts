import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium, signedInContext } from "./support";

// The assistant on a craft page (issue 12): it says what it knows (the business and the open
// craft), answers (offline on the test stack), and "Use in craft" puts the answer into the step's
// text input the user last focused, by keyboard, where it can be saved as usual.

let browser: Browser;
let page: Page;
let craftId = "";

beforeAll(async () => {
  browser = await launchChromium();
  const signedIn = await signedInContext(browser, "e2e-assistant");
  page = signedIn.page;
  const created = await signedIn.session.post("/api/projects/createProject", {
    name: "Spoke & Chain",
    description: "Same-day bike repairs in Leeds, by two mechanics.",
  });
  expect(created.status).toBe(201);
  const craft = await signedIn.session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
  expect(craft.status).toBe(201);
  craftId = craft.body.result.craftId;
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("assistant", () => page);

describe("the assistant helps with the open craft", () => {
  step("shows what it uses and answers", async () => {
    await page.goto(`/app/crafts/BlogWriter?craftId=${craftId}`);
    await page.getByTestId("step-form-topic").waitFor();
    // The user was writing the audience when they asked for help.
    await page.getByTestId("input-audience").click();
    await page.getByTestId("assistant-open").click();
    const using = page.getByTestId("assistant-context");
    await using.waitFor();
    expect(await using.textContent()).toMatch(/^Using: Spoke & Chain · .+/);
    await page
      .getByTestId("assistant-input")
      .locator("textarea")
      .or(page.getByTestId("assistant-input"))
      .first()
      .fill("Who should this post speak to?");
    await page.getByTestId("assistant-send").click();
    await page.locator('[data-testid="assistant-message"][data-type="answer"]').waitFor();
  });

  step("Use in craft, by keyboard, puts the answer into the focused input", async () => {
    const reply = page.locator('[data-testid="assistant-message"][data-type="answer"] .ant-typography').first();
    const answer = ((await reply.textContent()) ?? "").trim();
    // Offline, it names what it knows: the business and the open craft.
    expect(answer).toContain("Spoke & Chain");
    expect(answer).toContain("Blog post");
    const topicBefore = await page.getByTestId("input-topic").inputValue();
    const audienceBefore = await page.getByTestId("input-audience").inputValue();
    const use = page.getByTestId("assistant-use-in-craft");
    await use.focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("assistant-panel").waitFor({ state: "hidden" });
    const audience = page.getByTestId("input-audience");
    await page.waitForFunction(
      (before) => (document.querySelector('[data-testid="input-audience"]') as HTMLInputElement)?.value !== before,
      audienceBefore,
    );
    const flat = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(flat(await audience.inputValue())).toBe(flat(audienceBefore ? `${audienceBefore} ${answer}` : answer));
    expect(await page.getByTestId("input-topic").inputValue()).toBe(topicBefore);
  });
});
