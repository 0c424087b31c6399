import { gatewayUrl } from "@crafter/kit/testing";
import { afterAll, beforeAll, expect, it, jest } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support";

// The gateway's Content-Security-Policy (issue 9) must not break what people load: the dashboard
// (Vite build, antd's inline styles) and the API reference (Scalar's bundle, served locally).
// Chromium reports every blocked resource as a securitypolicyviolation; none may occur, and no
// request may leave our origin.

jest.setTimeout(120_000);

const base = gatewayUrl();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string): Promise<{ page: Page; violations: string[]; outside: string[] }> {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  const violations: string[] = [];
  const outside: string[] = [];
  const origin = new URL(base).origin;
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["data:", "blob:"].includes(url.protocol) && url.origin !== origin) outside.push(request.url());
  });
  await page.goto(path);
  return { page, violations, outside };
}

it("renders the dashboard's sign-in page with no CSP violation", async () => {
  const { page, violations, outside } = await open("/signin");
  await page
    .getByRole("button", { name: /sign in/i })
    .first()
    .waitFor();
  expect(await page.locator("style").count()).toBeGreaterThan(0);
  expect(violations).toEqual([]);
  expect(outside).toEqual([]);
});

it("renders the API reference from our own origin with no CSP violation", async () => {
  const { page, violations, outside } = await open("/api/reference");
  await page.getByText("Crafter API").first().waitFor();
  await page.getByText("/api/workflowsV2").first().waitFor();
  expect(violations).toEqual([]);
  expect(outside).toEqual([]);
});
