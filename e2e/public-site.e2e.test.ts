/// <reference lib="dom" />
import { createRequire } from "node:module";
import { gatewayUrl } from "@crafter/kit/testing";
import { PLAN_CARDS } from "@crafter/plans";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support";

// Issue 14's public site in Chromium: each page is prerendered HTML with its title, description and
// Open Graph tags (read without running any script), renders in the browser, /pricing shows
// @crafter/plans' cards (billing's) with the monthly/yearly toggle, and axe-core finds no serious
// or critical accessibility violation.

jest.setTimeout(300_000);

const base = gatewayUrl();
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const PAGES = [
  { path: "/features", title: "Features · Crafter" },
  { path: "/usecases", title: "Use cases · Crafter" },
  { path: "/why-us", title: "Why Crafter · Crafter" },
  { path: "/pricing", title: "Pricing · Crafter" },
  { path: "/integrations/shopify", title: "Crafter for Shopify · Crafter" },
  { path: "/FAQ", title: "Frequently asked questions · Crafter" },
];

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<{ id: string; help: string; targets: string[] }[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
    }));
}

describe("the public site", () => {
  it.each(PAGES)("prerenders $path with its title, description and Open Graph tags", async ({ path, title }) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<title>${title.replace("&", "&amp;")}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
    expect(html).toContain(`<meta property="og:title" content="${title}"`);
    expect(html).toMatch(/<meta property="og:description" content="[^"]+"/);
    expect(html).toMatch(/<meta property="og:url" content="[^"]+"/);
    // The content is in the document itself, before any script runs.
    expect(html).toMatch(/<div id="root"><div[^>]*class="[^"]*crafter-public/);
    expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
  });

  it.each(PAGES)("renders $path in the browser with no serious accessibility violation", async ({ path, title }) => {
    // The gateway's CSP forbids inline scripts; the test's axe-core is injected past it, not the app's code.
    const page = await browser.newPage({ baseURL: base, bypassCSP: true });
    page.setDefaultTimeout(90_000);
    try {
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await page.locator(`[data-testid="public-page"][data-path="${path}"]`).waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.title()).toBe(title);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows billing's plan cards on /pricing, monthly and yearly, with the yearly savings", async () => {
    const page = await browser.newPage({ baseURL: base, viewport: { width: 390, height: 844 } });
    page.setDefaultTimeout(90_000);
    try {
      await page.goto("/pricing");
      const cards = page.getByTestId("plan-card");
      await cards.first().waitFor();
      expect(await cards.count()).toBe(PLAN_CARDS.length);
      const yearly = await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-plan")));
      expect(yearly).toEqual(PLAN_CARDS.map((plan) => plan.planKey.yearly));
      const yearlyPrices = await page.getByTestId("plan-price").allInnerTexts();
      expect(yearlyPrices).toEqual(PLAN_CARDS.map((plan) => `$${plan.yearlyPrice.toFixed(2)}`));
      expect(await page.getByTestId("plan-savings").allInnerTexts()).toEqual(
        PLAN_CARDS.map((plan) => `Save ${plan.yearlySavings}%`),
      );

      await page.getByTestId("pricing-period").getByText("Monthly").click();
      await page.locator(`[data-testid="plan-card"][data-plan="${PLAN_CARDS[0]!.planKey.monthly}"]`).waitFor();
      expect(await page.getByTestId("plan-price").allInnerTexts()).toEqual(
        PLAN_CARDS.map((plan) => `$${plan.monthlyPrice}`),
      );
      expect(await page.getByTestId("plan-savings").count()).toBe(0);
      const overflow = await page.evaluate(
        () => document.scrollingElement!.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    } finally {
      await page.close();
    }
  });
});
