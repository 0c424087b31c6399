/// <reference lib="dom" />
// A marketer imports HubSpot's contacts export in Chromium: the mapping step shows the lifecycle
// stages that are not contact types (instead of failing their rows) and how many rows carry opt-in
// evidence; one choice ("Add these values") and every row is imported; the result names the
// repeated rows apart. Screenshots of each step at 1366 px and 390 px go to .data/e2e-artifacts.
import { join } from "node:path";
import { repoRoot } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { atBothWidths, browserStep, launchChromium, signedInContext } from "./support";

const fixture = join(repoRoot, "services/contacts/test/fixtures/hubspot-contacts.csv");

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  const signed = await signedInContext(browser, "import-e2e", { viewport: { width: 1366, height: 850 } });
  ({ context, page } = signed);
  page.setDefaultTimeout(60_000);
  const project = await signed.session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket",
    description: "A family-run bicycle repair shop.",
    audience: "Commuters",
    keywords: ["bike repair"],
    websiteUrl: "spokeandsprocket.example.com",
  });
  expect(project.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const step = browserStep("contacts-import", () => page);

describe("importing a HubSpot export in the browser", () => {
  step(
    "shows the stages outside the contact types and the consent of the rows, and imports all 80 after one choice",
    async () => {
      await page.goto("/app/contacts/import");
      await page.locator("input[type=file]").setInputFiles(fixture);
      await page.getByTestId("import-upload").click();
      const unknown = page.getByTestId("import-unknown-values");
      await unknown.waitFor();
      await expect(unknown.textContent()).resolves.toContain(
        "Lifecycle Stage: 6 values that are not contact types, in 56 rows",
      );
      await expect(unknown.textContent()).resolves.toContain("subscriber (22)");
      await page.getByTestId("import-consent-pending").waitFor();
      await expect(page.getByTestId("import-start").isDisabled()).resolves.toBe(true);
      await atBothWidths(page, "import-mapping");

      await page.getByTestId("import-unknown-add").click();
      await unknown.waitFor({ state: "detached" });
      await expect(page.getByTestId("import-start").isEnabled()).resolves.toBe(true);
      await page.getByTestId("import-start").click();
      const summary = page.getByTestId("import-summary");
      await summary.waitFor({ timeout: 120_000 });
      const text = await summary.textContent();
      expect(text).toContain("Created80");
      expect(text).toContain("Failed0");
      await atBothWidths(page, "import-result");
    },
    240_000,
  );
});
