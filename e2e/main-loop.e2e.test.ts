/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gatewayUrl, linkFrom, repoRoot, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type LocalDns, startLocalDns } from "./dns";
import { mailHeaders, mailMessage, mailSource, searchMail, waitForMail } from "./mailpit";
import { atBothWidths, browserStep, choose, launchChromium } from "./support";

// The main loop a new user runs, in Debian's Chromium against the test stack, timed stage by stage:
// sign up through the page (the verification email from Mailpit), describe the business, import
// the Mailchimp export, build a segment, craft an email with EmailWriter, "Send as campaign",
// preview it, send a test to oneself, set a sender identity and confirm its address by the emailed
// link, publish the sending domain's DKIM, SPF and DMARC records (on a local DNS server the stack's
// DNS_SERVERS points at) and see them verified, send; Mailpit holds the segment's emails from the
// verified address with a DKIM-Signature that verifies against the published key; one email's HTML
// is read in a browser page of another origin (the open pixel loads cross-origin) and its link
// clicked; the calendar shows the opens and clicks.

const run = randomUUID().slice(0, 8);
const email = uniqueEmail("main-loop");
const password = "a long and honest passphrase";
const domain = `m${run}.example`;
const fromAddress = `hello@${domain}`;
const business = {
  name: "Spoke & Sprocket",
  description: "A family-run bicycle repair shop in north-west Leeds that services road bikes and e-bikes.",
  audience: "Commuters and weekend riders in Leeds",
  website: "spokeandsprocket.example.com",
  address: "7 Chain Street, Leeds LS1 2AB",
};
const fixture = join(repoRoot, "services/contacts/test/fixtures/mailchimp-subscribed.csv");
// The export's members tagged "Newsletter": the segment.
const SEGMENT_SIZE = 10;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let dns: LocalDns;
let campaignId = "";
let campaignName = "";

/** Seconds per stage of the loop, in order; printed at the end with the total. */
const stages: [string, number][] = [];
let lapStart = 0;
function lap(stage: string) {
  const now = performance.now();
  stages.push([stage, (now - lapStart) / 1000]);
  lapStart = now;
}

beforeAll(async () => {
  dns = await startLocalDns();
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 1366, height: 850 } });
  page = await context.newPage();
  // This machine is shared: pages may take longer than the default to settle.
  page.setDefaultTimeout(60_000);
  lapStart = performance.now();
}, 60_000);

afterAll(async () => {
  if (stages.length > 0) {
    const total = stages.reduce((sum, [, seconds]) => sum + seconds, 0);
    console.log(
      [
        "main loop, seconds per stage:",
        ...stages.map(([stage, seconds]) => `  ${seconds.toFixed(1).padStart(6)}  ${stage}`),
        `  ${total.toFixed(1).padStart(6)}  total`,
      ].join("\n"),
    );
  }
  await context?.close();
  await browser?.close();
  await dns?.close();
});

const step = browserStep("main-loop", () => page);

/** The gateway's JSON result for a GET with the browser's cookies. */
async function apiGet<T>(path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

describe("the main loop, as a new user", () => {
  step("signs up through the page and verifies from the emailed link", async () => {
    await page.goto("/signup");
    await page.getByTestId("signup-name").fill("Robin");
    await page.getByTestId("signup-email").fill(email);
    await page.getByTestId("signup-password").fill(password);
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-success").waitFor();
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    await page.goto(link.pathname + link.search);
    await page.getByTestId("verify-success").waitFor();
    await page.getByTestId("verify-signin-link").click();
    await page.getByTestId("signin-email").fill(email);
    await page.getByTestId("signin-password").fill(password);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/welcome");
    lap("sign up, verify, sign in");
  });

  step("describes the business", async () => {
    await page.getByTestId("welcome-name").fill(business.name);
    await page.getByTestId("welcome-description").fill(business.description);
    await page.getByTestId("welcome-audience").fill(business.audience);
    await page.getByTestId("welcome-website").fill(business.website);
    await page.getByTestId("welcome-submit").click();
    await page.waitForURL("**/app/dashboard");
    lap("describe the business");
  });

  step("imports the Mailchimp export: every member subscribed", async () => {
    await page.goto("/app/contacts/import");
    await page.locator("input[type=file]").setInputFiles(fixture);
    await page.getByTestId("import-upload").click();
    await page.getByTestId("import-start").click();
    const summary = page.getByTestId("import-summary");
    await summary.waitFor({ timeout: 120_000 });
    const text = await summary.textContent();
    expect(text).toContain("Created30");
    expect(text).toContain("Failed0");
    lap("import the Mailchimp export");
  });

  step("builds a segment of the newsletter readers and sees its live count", async () => {
    await page.goto("/app/segments");
    await page.getByTestId("segments-new").click();
    await page.waitForURL("**/app/segments/new");
    await page.getByTestId("segment-name").fill("Newsletter readers");
    await page.locator(".ruleGroup-addRule").first().click();
    await page.locator(".rule-fields").first().selectOption("tags");
    await page.locator(".rule-operators").first().selectOption("contains");
    await page.locator(".rule-value").first().fill("Newsletter");
    await page
      .getByTestId("segment-count")
      .locator(".ant-statistic-content-value", { hasText: new RegExp(`^${SEGMENT_SIZE}$`) })
      .waitFor();
    await page.getByTestId("segment-save").click();
    await page.waitForURL(/\/app\/segments\/(?!new)[^/]+$/);
    lap("build a segment");
  });

  step("crafts an email with EmailWriter: five subject lines to choose from, then the body", async () => {
    await page.goto("/app/crafts/EmailWriter");
    await page.getByTestId("step-form-brief").waitFor();
    await page.getByTestId("input-topic").fill("Spring service week");
    await page.getByTestId("input-offering").fill("E-bike servicing");
    await page.getByTestId("input-audience").fill("weekend riders in north-west Leeds; e-bike owners");
    await page.getByTestId("input-offer").fill("20% off your first service");
    await page.getByTestId("complete-step").click();
    await page.waitForURL(/\/app\/crafts\/EmailWriter\?craftId=/);
    const craftId = new URL(page.url()).searchParams.get("craftId")!;
    // Each later step: complete it once its form shows, until the craft is complete.
    type Craft = {
      state: string;
      craftName: string;
      currentStep: string | null;
      steps: { name: string; results?: { sections?: Record<string, string[]> }[] }[];
    };
    let craft = await apiGet<Craft>(`/api/workflowsV2/${craftId}`);
    for (let guard = 0; craft.state !== "Completed" && guard < 6; guard++) {
      if (craft.currentStep) {
        await page.getByTestId(`step-form-${craft.currentStep}`).waitFor();
        await page.getByTestId("complete-step").click();
        await page.waitForFunction(
          (name) => !document.querySelector(`[data-testid="step-form-${name}"]`),
          craft.currentStep,
          { timeout: 60_000 },
        );
      }
      craft = await apiGet<Craft>(`/api/workflowsV2/${craftId}`);
    }
    expect(craft.state).toBe("Completed");
    const subjects = craft.steps.find((s) => s.name === "brief")?.results?.at(-1)?.sections?.subjects ?? [];
    expect(subjects.length).toBeGreaterThanOrEqual(5);
    campaignName = craft.craftName;
    lap("craft the email (EmailWriter)");
  });

  step("Send as campaign: the form, a preview for a real contact, and a test to oneself", async () => {
    await page.reload();
    await page.getByTestId("craft-send-campaign").click();
    await page.waitForURL(/\/app\/email\/campaigns\/new\?craftId=/);
    await page.getByTestId("campaign-composer").waitFor();
    await expect(page.getByTestId("campaign-name").inputValue()).resolves.toBe(campaignName);
    await choose(page, "campaign-segment", "Newsletter readers");
    // An A/B test's second subject is offered the craft's other subject lines.
    await page.getByTestId("campaign-ab").click();
    await page.getByTestId("campaign-subject-b").click();
    const offered = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    await offered.nth(3).waitFor();
    expect(await offered.allTextContents()).not.toContain(campaignName);
    await page.getByTestId("campaign-ab").click();
    await page.getByTestId("campaign-preview-open").click();
    await page
      .getByTestId("campaign-audience")
      .getByText(`All ${SEGMENT_SIZE} contacts in the segment get it.`)
      .waitFor();
    const frame = page.frameLocator("[data-testid='campaign-preview-frame']");
    await frame.getByText(/our offer to you is 20% off your first service/).waitFor();
    await atBothWidths(page, "main-loop-campaign-preview");
    await page.getByTestId("campaign-test-me").click();
    await page.getByText(`A test is on its way to ${email}`).waitFor();
    const [test] = await waitForMail(`to:"${email}" subject:"[Test]"`);
    // Before a confirmed address, the platform's address with the business's name.
    expect(test!.From.Name).toBe(business.name);
    expect(test!.From.Address).not.toBe(fromAddress);
    await page.getByTestId("campaign-save").click();
    await page.waitForURL((url) => /\/app\/email\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname));
    campaignId = new URL(page.url()).pathname.split("/").at(-1)!;
    lap("campaign form, preview, test send");
  });

  step("sets a sender identity and confirms its address by the emailed link", async () => {
    await page.goto("/app/settings/sender");
    await page.getByTestId("sender-effective").waitFor();
    await page.getByTestId("sender-from-name").fill(business.name);
    await page.getByTestId("sender-from-address").fill(fromAddress);
    await page.getByTestId("sender-save").click();
    await page.getByTestId("sender-resend").waitFor();
    const link = linkFrom(await waitForEmail(fromAddress, ""), "/confirm-sender");
    await page.goto(link.pathname + link.search);
    await page.getByTestId("sender-confirm-done").waitFor();
    lap("sender identity, confirmed address");
  });

  step("publishes the sending domain's DKIM, SPF and DMARC records and sees them verified", async () => {
    await page.goto("/app/settings/sender");
    await page
      .getByTestId("sender-effective")
      .getByText(`Your email goes out as ${business.name} <${fromAddress}>`)
      .waitFor();
    await page.getByTestId("sender-domain").fill(domain);
    await page.getByTestId("sender-domain-add").click();
    const section = page.getByTestId(`sender-domain-${domain}`);
    await section.waitFor();
    // The records as the page shows them to copy: host, then value.
    for (const kind of ["dkim", "spf", "dmarc"]) {
      const codes = section.getByTestId(`sender-record-${kind}`).locator("code");
      dns.publish((await codes.nth(0).textContent())!.trim(), (await codes.nth(1).textContent())!.trim());
    }
    await section.getByTestId("sender-domain-check").click();
    for (const kind of ["dkim", "spf", "dmarc"])
      await section.getByTestId(`sender-record-${kind}-status`).getByText("Verified", { exact: true }).waitFor();
    lap("sending domain: DKIM, SPF, DMARC verified");
  });

  step("sends after a confirmation naming the count", async () => {
    await page.goto(`/app/email/campaigns/${campaignId}/edit`);
    await page.getByTestId("campaign-composer").waitFor();
    await page.getByTestId("sender-notice").getByText(fromAddress, { exact: false }).first().waitFor();
    // Sending asks for the business's postal address first (CAN-SPAM): added on the profile.
    await page.getByTestId("campaign-address-missing").getByRole("link", { name: "Add the address" }).click();
    await page.waitForURL(/\/app\/business\/profile$/);
    await page.getByTestId("profile-field-address").fill(business.address);
    await page.getByTestId("business-profile-form-submit").click();
    await page.getByText("Business profile saved").waitFor();
    await page.goto(`/app/email/campaigns/${campaignId}/edit`);
    await page.getByTestId("campaign-send").and(page.locator(":enabled")).waitFor();
    await page.getByTestId("campaign-send").click();
    await page.getByTestId("campaign-send-confirm").waitFor();
    await page.getByRole("button", { name: `Send to ${SEGMENT_SIZE} contacts` }).click();
    await page.waitForURL((url) => url.pathname === `/app/email/campaigns/${campaignId}`);
    lap("postal address, send");
  });

  step("Mailpit holds the segment's emails from the verified address, DKIM-signed", async () => {
    const received = await waitForMail(`from:"${fromAddress}"`, SEGMENT_SIZE, 60_000);
    expect(received).toHaveLength(SEGMENT_SIZE);
    expect(new Set(received.map((m) => m.To[0]!.Address)).size).toBe(SEGMENT_SIZE);
    for (const message of received) expect(message.From).toEqual({ Name: business.name, Address: fromAddress });
    const headers = await mailHeaders(received[0]!.ID);
    expect(headers["Dkim-Signature"] ?? headers["DKIM-Signature"]).toHaveLength(1);
    const verified = await dkimVerify(Buffer.from(await mailSource(received[0]!.ID)), { resolver: dns.resolve });
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0]).toMatchObject({ signingDomain: domain, status: { result: "pass" } });
    lap("received, DKIM verified");
  });

  step("a reader opens one email in the browser and clicks its link; the calendar shows both", async () => {
    const [first] = await searchMail(`from:"${fromAddress}"`);
    const message = await mailMessage(first!.ID);
    // The email as a webmail shows it: a page of another origin, whose <img> loads the open pixel.
    const server: Server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(message.HTML);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const reader = await browser.newContext();
    try {
      const mail = await reader.newPage();
      const pixel = mail.waitForResponse((response) => response.url().includes("/t/o/"));
      await mail.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect((await pixel).status()).toBe(200);
      const image = mail.locator('img[src*="/t/o/"]');
      await expect(image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).resolves.toBeGreaterThan(0);
      const click = mail.waitForResponse((response) => response.url().includes("/t/c/"));
      await mail.locator('a[href*="/t/c/"]', { hasText: "Learn more" }).first().click({ noWaitAfter: true });
      const redirect = await click;
      expect(redirect.status()).toBe(302);
      expect(redirect.headers().location).toContain("spokeandsprocket.example.com");
    } finally {
      await reader.close();
      server.close();
    }
    lap("read in a browser, link clicked");

    await page.goto("/app/calendar");
    await page.getByTestId("calendar-mode").getByText("List", { exact: true }).click();
    const row = page.getByTestId("calendar-list").locator("tr", { hasText: campaignName });
    const rate = `${(100 / SEGMENT_SIZE).toFixed(1)}%`;
    // Opens and clicks are counted as they come: the list is read again until both show.
    for (let i = 0; i < 40; i++) {
      const text =
        (await row
          .first()
          .textContent()
          .catch(() => "")) ?? "";
      if (text.split(rate).length - 1 >= 2) break;
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByTestId("calendar-list").waitFor();
    }
    const cells = await row.first().locator("td").allTextContents();
    const headers = await page.getByTestId("calendar-list").locator("thead th").allTextContents();
    expect(cells[headers.indexOf("Open rate")]).toBe(rate);
    expect(cells[headers.indexOf("Click rate")]).toBe(rate);
    await atBothWidths(page, "main-loop-calendar");
    lap("opens and clicks in the calendar");
  });
});
