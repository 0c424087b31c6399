/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { type GatewaySession, linkFrom, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, signedInContext } from "./support";

// Settings → Sender in Chromium through the gateway: save a from address (pending, the platform's
// address used meanwhile), follow the emailed link on /confirm-sender, add a sending domain and see
// its three records pending; at 1366 and 390 px nothing scrolls sideways.
jest.setTimeout(180_000);

const shots = "/tmp/sender";
const run = randomUUID().slice(0, 8);
const domain = `e${run}.example`;
const fromAddress = `hello@${domain}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  ({ context, page, session } = await signedInContext(browser, "sender-e2e", {
    viewport: { width: 1366, height: 850 },
  }));
  const project = await session.post("/api/projects/createProject", {
    name: "Leeds Bikes",
    description: "A bicycle shop in north-west Leeds that repairs, sells and rents bikes and e-bikes.",
  });
  expect(project.status).toBe(201);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function noSidewaysScroll() {
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.doc).toBeLessThanOrEqual(widths.view);
}

describe("Settings → Sender", () => {
  it("saves a from address as pending, then confirmed by its link", async () => {
    await page.goto("/app/settings/sender");
    // The first load of the page on a busy machine: wait for the identity, not a fixed 30 s.
    await page.getByTestId("sender-effective").waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("sender-effective").textContent()).toContain("Leeds Bikes <");
    await page.getByTestId("sender-from-name").fill("Leeds Bikes");
    await page.getByTestId("sender-from-address").fill("not-an-address");
    await page.getByTestId("sender-save").click();
    await page.getByText("From address must be an email address").waitFor();
    await page.getByTestId("sender-from-address").fill(fromAddress);
    await page.getByTestId("sender-from-address").press("Enter");
    await page.getByTestId("sender-resend").waitFor();
    expect(await page.getByTestId("sender-address-status").textContent()).toBe("Pending");
    expect(await page.getByTestId("sender-effective").textContent()).toContain(`Replies go to ${fromAddress}`);
    await page.screenshot({ path: `${shots}/sender-pending-1366.png`, fullPage: true });

    const api = await session.get("/api/email/sender");
    expect(api.body.result).toMatchObject({ addressStatus: "pending", fromAddress, effectiveReplyTo: fromAddress });
    expect(api.body.result.effectiveFrom.address).not.toBe(fromAddress);

    const link = linkFrom(await waitForEmail(fromAddress, ""), "/confirm-sender");
    await page.goto(link.pathname + link.search);
    await page.getByTestId("sender-confirm-done").waitFor();
    await page.goto("/app/settings/sender");
    await page
      .getByTestId("sender-effective")
      .getByText(`Your email goes out as Leeds Bikes <${fromAddress}>`)
      .waitFor();
    expect(await page.getByTestId("sender-address-status").textContent()).toBe("Verified");
  });

  it("adds a sending domain and shows its DKIM, SPF and DMARC records, pending", async () => {
    await page.getByTestId("sender-domain").fill(domain);
    await page.getByTestId("sender-domain-add").click();
    const section = page.getByTestId(`sender-domain-${domain}`);
    await section.waitFor();
    for (const kind of ["dkim", "spf", "dmarc"])
      expect(await section.getByTestId(`sender-record-${kind}-status`).textContent()).toBe("Pending");
    expect(await section.getByTestId("sender-record-dkim").textContent()).toContain(`._domainkey.${domain}`);
    const listed = await session.get("/api/email/sender/domains");
    expect(JSON.stringify(listed.body)).not.toMatch(/PRIVATE KEY/);
    await noSidewaysScroll();
    await page.screenshot({ path: `${shots}/sender-1366.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId(`sender-domain-${domain}`).waitFor();
    await noSidewaysScroll();
    await page.screenshot({ path: `${shots}/sender-390.png`, fullPage: true });
  });
});
