/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import type { GatewaySession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { searchMail, waitForMail } from "./mailpit";
import { atBothWidths, browserStep, choose, launchChromium, signedInContext } from "./support";

// From a finished email craft to a send, in Debian's Chromium against the test stack: the craft
// offers "Send as campaign" and "Use in automation"; its HTML result is edited in the rich-text
// editor (smart values as chips, the HTML view); the automation opens with a send-email step filled
// from the craft; the campaign form opens with the craft chosen, previews it for a real contact of
// the segment, counts who gets it and who does not, sends a test to the signed-in user, and sends
// after a confirmation naming the count; Mailpit receives both.

const run = randomUUID().slice(0, 8);
const domain = `c${run}.craft-send.test`;
const tag = `send-${run}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let userEmail = "";
let projectId = "";
let craftId = "";
let craftName = "";

beforeAll(async () => {
  browser = await launchChromium();
  const signedIn = await signedInContext(browser, "craft-send", { viewport: { width: 1366, height: 850 } });
  ({ context, page, session } = signedIn);
  // This machine is shared: pages may take longer than the default to settle.
  page.setDefaultTimeout(60_000);
  userEmail = signedIn.email;
  const project = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket Bicycle Repair",
    description: "A family-run bicycle repair shop in Leeds.",
  });
  if (project.status !== 201) throw new Error(`createProject: ${project.status}`);
  projectId = project.body.result.project.projectId;
  const address = await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "7 Chain Street, Leeds LS1 2AB" },
  });
  if (address.status !== 200) throw new Error(`address: ${address.status}`);
  for (const [name, consent] of [
    ["ann", "subscribed"],
    ["bob", "subscribed"],
    ["cy", "pending"],
  ] as const) {
    const contact = await session.post(`/api/contacts?projectId=${projectId}`, {
      email: `${name}@${domain}`,
      firstName: name === "ann" ? "Ann" : name,
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
  // An EmailWriter craft written by the offline engine: the brief, then the body.
  const craft = await session.post("/api/workflowsV2", { workflowName: "EmailWriter" });
  craftId = craft.body.result.craftId as string;
  await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
    stepName: "brief",
    values: { emailType: "announcement", topic: `Cargo bike clinic ${run}` },
  });
  const body = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
    stepName: "body",
    values: {
      subject: `Cargo clinic ${run}`,
      preheader: "Saturday mornings",
      greeting: 'Hi {{contact.firstName | "there"}},',
    },
  });
  if (body.status !== 200) throw new Error(`body: ${body.status}`);
  craftName = (await session.get(`/api/workflowsV2/${craftId}`)).body.result.craftName as string;
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const step = browserStep("craft-to-campaign", () => page);
/** Screenshots at 1366 and 390 px as .data/e2e-artifacts/craft-to-campaign-<name>-<width>.png. */
const shot = (target: Page, name: string) => atBothWidths(target, `craft-to-campaign-${name}`);

describe("from an email craft to a send", () => {
  step("the finished craft offers Send as campaign and Use in automation", async () => {
    await page.goto(`/app/crafts/EmailWriter?craftId=${craftId}`);
    await page.getByTestId("craft-send-campaign").waitFor();
    await page.getByTestId("craft-use-automation").waitFor();
    await shot(page, "craft");
  });

  step("Use in automation opens a new automation whose email is the craft's", async () => {
    await page.goto(`/app/automation/new?craftId=${craftId}`);
    const editor = page.locator("[data-testid$='-body-rich']").first();
    await editor.waitFor();
    await expect(page.locator("[data-testid$='-subject']").first().inputValue()).resolves.toBe(`Cargo clinic ${run}`);
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.locator("[data-testid$='-body-smart-value']").first().click();
    await page.locator(".ant-dropdown:not(.ant-dropdown-hidden)").getByText("Contact's first name").click();
    // A smart value is one chip in the text, shown by its label.
    // The craft's greeting and the one inserted: both chips, not tokens in the text.
    const chips = editor.locator("[data-smart-value='contact.firstName']", { hasText: "Contact's first name" });
    await chips.nth(1).waitFor();
    await shot(page, "automation-step");
    await page.getByText("HTML", { exact: true }).first().click();
    const html = await page.locator("[data-testid$='-body-html']").first().inputValue();
    expect(html).toContain('{{contact.firstName | "there"}}');
    expect(html).not.toContain("data-smart-value");
  });

  step("Send as campaign opens the campaign form with the craft chosen", async () => {
    await page.goto(`/app/crafts/EmailWriter?craftId=${craftId}`);
    await page.getByTestId("craft-send-campaign").click();
    await page.waitForURL(/\/app\/email\/campaigns\/new\?craftId=/);
    await page.getByTestId("campaign-composer").waitFor();
    await expect(page.getByTestId("campaign-name").inputValue()).resolves.toBe(craftName);
    await page.getByTestId("campaign-craft").getByText(craftName).waitFor();
    await choose(page, "campaign-segment", `Riders ${run}`);
    await shot(page, "campaign-form");
  });

  step("previews the email for a real contact of the segment, on a desktop and a phone", async () => {
    await page.getByTestId("campaign-preview-open").click();
    const audience = page.getByTestId("campaign-audience");
    await audience.getByText("2 of the segment's 3 contacts get it; 1 does not.").waitFor();
    await audience.getByText(/1 pending consent/).waitFor();
    const frame = page.frameLocator("[data-testid='campaign-preview-frame']");
    // Smart values are filled for the first recipient, and the footer carries the address and unsubscribe link.
    // The first recipient is Ann or bob (the segment's order is not fixed), never the fallback.
    await frame.getByText(/^Hi (Ann|bob),$/).waitFor();
    await frame
      .getByText(/7 Chain Street/)
      .first()
      .waitFor();
    await frame
      .getByRole("link", { name: /unsubscribe/i })
      .first()
      .waitFor();
    await page.getByTestId("campaign-preview-device").getByText("Phone").click();
    await expect(
      page.getByTestId("campaign-preview-frame").evaluate((el) => (el as HTMLElement).getBoundingClientRect().width),
    ).resolves.toBeLessThanOrEqual(376);
    await shot(page, "campaign-preview");
  });

  step("sends a test to the signed-in user, marked as a test", async () => {
    await page.getByTestId("campaign-test-me").click();
    await page.getByText(`A test is on its way to ${userEmail}`).waitFor();
    const tests = await waitForMail(`to:"${userEmail}" subject:"[Test] Cargo clinic ${run}"`, 1);
    expect(tests.map((m) => m.Subject)).toEqual([`[Test] Cargo clinic ${run}`]);
    // A test is not a campaign send: nobody in the segment has had it.
    expect(await searchMail(`to:"${domain}"`)).toEqual([]);
  });

  step("sends after a confirmation that names the count, and Mailpit receives it", async () => {
    await page.getByTestId("campaign-send").click();
    await page.getByTestId("campaign-send-confirm").waitFor();
    await shot(page, "campaign-confirm");
    await page.getByRole("button", { name: "Send to 2 contacts" }).click();
    await page.waitForURL((url) => /\/app\/email\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname));
    const messages = await waitForMail(`to:"${domain}"`, 2);
    expect(messages.map((m) => m.To[0]?.Address).sort()).toEqual([`ann@${domain}`, `bob@${domain}`]);
    expect(messages.every((m) => m.Subject === `Cargo clinic ${run}`)).toBe(true);
  });
  step("edits the craft's HTML result as rich text, with smart values as chips", async () => {
    await page.goto(`/app/crafts/EmailWriter?craftId=${craftId}`);
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-body").click();
    await page.getByTestId("result-edit").first().click();
    const editor = page.getByTestId("result-edit-rich-rich");
    await editor.waitFor();
    await expect(editor.getAttribute("contenteditable")).resolves.toBe("true");
    await shot(page, "result-rich-text");
    await page.getByTestId("result-edit-save").click();
  });
});
