/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { type GatewaySession, gatewayUrl, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { mailHeaders, mailMessage, waitForMail } from "./mailpit";
import { atBothWidths, browserStep, choose, launchChromium } from "./support";

// Issue 13's sending in Debian's Chromium against the test stack: the Create menu's Email opens the
// template gallery; a predefined template is edited in the designer and saved; the composer asks for
// the business's postal address first, then sends the template to a segment (contacts and segment
// made through the API); Mailpit holds the message with the edited text, the unsubscribe link and
// the address; the campaign's page shows its delivery figures.

const run = randomUUID().slice(0, 8);
const domain = `e${run}.campaign-e2e.test`;
const tag = `e2e-${run}`;
const EDITED = `Story one from the campaign e2e ${run}`;
const ADDRESS = "7 Chain Street, Leeds LS1 2AB";
const TEMPLATE_NAME = `Campaign newsletter ${run}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let projectId = "";
let email = "";
let campaignId = "";

beforeAll(async () => {
  browser = await launchChromium();
  const user = await verifiedSession("campaign-e2e");
  session = user.session;
  email = user.email;
  const project = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket Bicycle Repair",
    description: "A family-run bicycle repair shop: road, gravel, mountain and cargo bikes, wheels built by hand.",
  });
  if (project.status !== 201) throw new Error(`createProject: ${project.status}`);
  projectId = project.body.result.project.projectId;
  // Two subscribed contacts and one that never confirmed, tagged; the segment is the tag.
  for (const [name, consent] of [
    ["ann", "subscribed"],
    ["bob", "subscribed"],
    ["cy", "pending"],
  ] as const) {
    const contact = await session.post(`/api/contacts?projectId=${projectId}`, {
      email: `${name}@${domain}`,
      firstName: name,
      tags: [tag],
    });
    if (contact.status !== 201) throw new Error(`contact: ${contact.status}`);
    if (consent === "subscribed") {
      const changed = await session.request("PATCH", `/api/contacts/${contact.body.result.id}?projectId=${projectId}`, {
        consent,
      });
      if (changed.status !== 200) throw new Error(`consent: ${changed.status}`);
    }
  }
  const segment = await session.post(`/api/segments?projectId=${projectId}`, {
    name: `Riders ${run}`,
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  if (segment.status >= 300) throw new Error(`segment: ${segment.status}`);
  context = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const step = browserStep("email-campaign", () => page);

describe("an email campaign from a designed template", () => {
  step("signs in", async () => {
    await page.goto("/signin");
    await page.getByTestId("signin-email").fill(email);
    await page.getByTestId("signin-password").fill("password-123");
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/dashboard");
  });

  step("opens the template gallery from the Create menu's Email", async () => {
    await page.goto("/app/dashboard");
    await page.getByTestId("nav-create").click();
    await page.getByTestId("nav-create-email").click();
    await page.waitForURL(/\/app\/create\/email$/);
    await page.getByTestId("template-card-predefined-newsletter").waitFor();
  });

  step("edits the newsletter in the designer and saves it as the user's own", async () => {
    await page.getByTestId("template-open-predefined-newsletter").click();
    await page.waitForURL(/\/app\/create\/email\/predefined-newsletter$/);
    const canvas = page.frameLocator(".gjs-frame");
    const story = canvas.getByText("Story one", { exact: true });
    await story.waitFor();
    await story.dblclick();
    await page.keyboard.press("End");
    await page.keyboard.type(` from the campaign e2e ${run}`);
    await canvas.getByText(EDITED).waitFor();
    await page.getByTestId("template-name").fill(TEMPLATE_NAME);
    await page.getByTestId("save-template").click();
    await page.waitForURL((url) => /\/app\/create\/email\/[0-9a-f-]{36}$/.test(url.pathname));
    // The URL changes before the saved copy's designer mounts; its button then says "Save".
    await page.getByTestId("save-template").getByText("Save", { exact: true }).waitFor();
  });

  step("is told to add the business's postal address before sending, and adds it", async () => {
    await page.goto("/app/email/campaigns/new");
    const warning = page.getByTestId("campaign-address-missing");
    await warning.waitFor();
    await expect(page.getByTestId("campaign-send").isDisabled()).resolves.toBe(true);
    await warning.getByRole("link", { name: "Add the address" }).click();
    await page.waitForURL(/\/app\/business\/profile$/);
    await page.getByTestId("profile-field-address").fill(ADDRESS);
    await page.getByTestId("business-profile-form-submit").click();
    await page.getByText("Business profile saved").waitFor();
  });

  step("sends the template to the segment", async () => {
    await page.goto("/app/email/campaigns/new");
    await page.getByTestId("campaign-composer").waitFor();
    await page.getByTestId("campaign-name").fill(`Spring service ${run}`);
    await choose(page, "campaign-segment", `Riders ${run}`);
    await choose(page, "campaign-template", TEMPLATE_NAME);
    await page.getByTestId("campaign-subject").fill(`Spring service week ${run}`);
    // The profile now has its address: no warning, and Send is enabled.
    await page.getByTestId("campaign-send").and(page.locator(":enabled")).waitFor();
    await expect(page.getByTestId("campaign-address-missing").count()).resolves.toBe(0);
    await page.getByTestId("campaign-send").click();
    // The confirmation names how many get it: the two subscribed contacts, not the pending one.
    await page.getByTestId("campaign-send-confirm").waitFor();
    await page.getByRole("button", { name: "Send to 2 contacts" }).click();
    await page.waitForURL((url) => /\/app\/email\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname));
    campaignId = page.url().split("/").pop()!;
  });

  step("makes a draft from an email craft, whose subject it takes", async () => {
    // An EmailWriter craft written by the offline engine (through the API): subject lines, then the body.
    const craft = await session.post("/api/workflowsV2", { workflowName: "EmailWriter" });
    const craftId = craft.body.result.craftId as string;
    await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "brief",
      values: { emailType: "announcement", topic: `Cargo bike clinic ${run}` },
    });
    const subject = `Cargo clinic ${run}`;
    const body = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "body",
      values: { subject, preheader: "Saturday mornings" },
    });
    expect(body.status).toBe(200);
    const name = (await session.get(`/api/workflowsV2/${craftId}`)).body.result.craftName as string;
    const campaignPage = page.url();
    await page.goto("/app/email/campaigns/new");
    await page.getByTestId("campaign-name").fill(`Clinic ${run}`);
    await choose(page, "campaign-segment", `Riders ${run}`);
    await page.getByLabel("An email craft").check();
    await choose(page, "campaign-craft", name);
    await page.getByTestId("campaign-save").click();
    await page.waitForURL((url) => /\/app\/email\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByTestId("campaign-detail").getByText(subject, { exact: true }).waitFor();
    await page.goto(campaignPage);
  });

  step("shows the campaign's delivery figures once it is sent", async () => {
    await page.getByTestId("campaign-status").getByText("sent", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByTestId("campaign-stat-sent").getByText("2").first().waitFor();
    await page.getByTestId("campaign-stat-delivery").getByText("100.0%").waitFor();
    await page.getByRole("cell", { name: `ann@${domain}` }).waitFor();
    const campaign = (await session.get(`/api/email/campaigns/${campaignId}`)).body.result;
    expect(campaign.stats).toMatchObject({ recipients: 2, sent: 2, failed: 0, deliveryRate: 1 });
  });

  step("lands in Mailpit with the edited text, the unsubscribe link and the address", async () => {
    const messages = await waitForMail(`to:"${domain}"`, 2);
    expect(messages.map((m) => m.To[0]!.Address).sort()).toEqual([`ann@${domain}`, `bob@${domain}`]);
    expect(messages[0]!.Subject).toBe(`Spring service week ${run}`);
    const message = await mailMessage(messages[0]!.ID);
    expect(message.HTML).toContain(EDITED);
    expect(message.HTML).toContain(ADDRESS);
    expect(message.HTML).toMatch(/href="http:\/\/localhost:\d+\/preferences\/[\w.-]+"[^>]*>Unsubscribe</);
    expect(message.Text).toContain(ADDRESS);
    const headers = await mailHeaders(messages[0]!.ID);
    expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
  });

  step("schedules a campaign at each contact's local time, which refuses an A/B test and Send now", async () => {
    await page.goto("/app/email/campaigns/new");
    await page.getByTestId("campaign-name").fill(`Local ${run}`);
    await choose(page, "campaign-segment", `Riders ${run}`);
    await choose(page, "campaign-template", TEMPLATE_NAME);
    await page.getByLabel("Each contact's local time").check();
    await expect(page.getByTestId("campaign-send").isDisabled()).resolves.toBe(true);
    await page.getByTestId("campaign-ab").click();
    await page.getByTestId("campaign-subject-b").fill(`Other subject ${run}`);
    await page.getByTestId("campaign-save").click();
    await page.getByText("An A/B test needs one send window", { exact: false }).waitFor();
    await atBothWidths(page, "campaign-local-time-form");
    await page.getByTestId("campaign-ab").click();
    // 09:00 two days from now on the business's wall clock (no zone on this profile: UTC).
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId("campaign-schedule-at").fill(`${day}T09:00`);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.waitForURL((url) => /\/app\/email\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname));
    const release = page.getByTestId("campaign-release");
    await release.getByText("Each contact's local time: 09:00 on their own clock", { exact: false }).waitFor();
    // The first time zone (UTC+14) reaches 09:00 at 19:00 UTC the day before.
    await release.getByText(/^Starts .* 19:00, when the first time zone reaches it$/).waitFor();
    await atBothWidths(page, "campaign-local-time-page");
    const id = page.url().split("/").pop()!;
    const campaign = (await session.get(`/api/email/campaigns/${id}`)).body.result;
    expect(campaign).toMatchObject({
      status: "scheduled",
      sendTimeBy: "contact",
      scheduledAt: `${day}T09:00:00.000Z`,
      startsAt: new Date(Date.parse(`${day}T09:00:00Z`) - 14 * 3_600_000).toISOString(),
    });
  });
});
