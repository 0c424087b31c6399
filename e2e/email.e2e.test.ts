/// <reference lib="dom" />
import { type GatewaySession, gatewayUrl, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserStep, launchChromium, signInThroughPage } from "./support";

// Issue 13's email templates in Debian's Chromium against the test stack: pick a predefined template,
// edit it in the GrapesJS designer, detach a smart value, save it as the user's own, and read the
// HTML the server rendered from it. Every request the page makes stays on the gateway's origin
// (the designer is self-hosted).

const base = gatewayUrl();
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let email = "";
const outside: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  const user = await verifiedSession("email-e2e");
  session = user.session;
  email = user.email;
  const project = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket Bicycle Repair",
    description: "A family-run bicycle repair shop: road, gravel, mountain and cargo bikes, wheels built by hand.",
    audience: "Commuters and weekend riders",
    keywords: ["bike repair"],
    websiteUrl: "spokeandsprocket.example.com",
  });
  if (project.status !== 201) throw new Error(`createProject: ${project.status}`);
  // The designer's preview shows the business profile's own name and postal address.
  const address = await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "12 Chain Street\nLeeds" },
  });
  if (address.status !== 200) throw new Error(`address: ${address.status}`);
  context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(45_000);
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(base) && !/^(data|blob|about):/.test(url)) outside.push(url);
  });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const step = browserStep("email", () => page);

describe("email templates in the browser", () => {
  step("signs in", async () => {
    await signInThroughPage(page, email);
  });

  step("shows the predefined templates in the gallery", async () => {
    await page.goto("/app/create/email");
    await page.getByTestId("templates-predefined").waitFor();
    await expect(page.getByTestId("template-card-predefined-newsletter").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("template-card-predefined-welcome").isVisible()).resolves.toBe(true);
  });

  step("opens the newsletter in the designer and edits its text", async () => {
    await page.getByTestId("template-open-predefined-newsletter").click();
    await page.waitForURL(/\/app\/create\/email\/predefined-newsletter$/);
    const canvas = page.frameLocator(".gjs-frame");
    const story = canvas.getByText("Story one", { exact: true });
    await story.waitFor();
    await story.dblclick();
    await page.keyboard.press("End");
    await page.keyboard.type(" from the e2e");
    await canvas.getByText("Story one from the e2e").waitFor();
  });

  step("detaches the first name smart value into plain text", async () => {
    await page.getByTestId("smart-values").click();
    await page
      .locator(".ant-list-item")
      .filter({ hasText: "Contact's first name" })
      .getByTestId("detach-smart-value")
      .first()
      .click();
    const text = page.getByTestId("detach-text");
    await expect(text.inputValue()).resolves.toBe("there");
    await text.fill("reader");
    await page.getByRole("button", { name: "Detach", exact: true }).last().click();
    await page.getByText("The smart value is plain text now").waitFor();
    await page
      .getByRole("dialog", { name: "Smart values in this template" })
      .getByRole("button", { name: "Close" })
      .click();
    await page.getByRole("dialog", { name: "Smart values in this template" }).waitFor({ state: "hidden" });
  });

  step("saves it as the user's own template", async () => {
    await page.getByTestId("template-name").fill("E2E newsletter");
    await page.getByTestId("save-template").click();
    await page.waitForURL((url) => /\/app\/create\/email\/[0-9a-f-]{36}$/.test(url.pathname));
    // The URL changes before the designer of the saved copy mounts; its button says "Save".
    await page.getByTestId("save-template").getByText("Save", { exact: true }).waitFor();
    const mine = await session.get("/api/email/templates?kind=email&scope=user");
    const saved = mine.body.result.result.find((t: { name: string }) => t.name === "E2E newsletter");
    expect(saved).toBeDefined();
    expect(saved.mjml).toContain("Story one from the e2e");
    expect(saved.mjml).toContain("Hi reader,");
    expect(saved.mjml).not.toContain("{{contact.firstName");
    expect(saved.html).toContain("Story one from the e2e");
  });

  step("previews the HTML the server rendered", async () => {
    await page.getByTestId("preview-template").click();
    const preview = page.frameLocator('[data-testid="rendered-preview"]');
    await preview.getByText("Story one from the e2e").waitFor();
    await preview.getByText("Spoke & Sprocket Bicycle Repair · 12 Chain Street, Leeds").waitFor();
    await page
      .getByRole("dialog", { name: "Preview (rendered on the server)" })
      .getByRole("button", { name: "Close" })
      .click();
  });

  step("lists it under My templates, and nothing loaded from another host", async () => {
    await page.goto("/app/create/email");
    await page.getByRole("tab", { name: "My templates" }).click();
    await page.getByTestId("templates-user").getByText("E2E newsletter").waitFor();
    expect(outside).toEqual([]);
  });
});
