/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { toBinary } from "@bufbuild/protobuf";
import { createKafka, createLogger, createPublisher, type Publisher, TOPICS, topicName } from "@crafter/kit";
import { type GatewaySession, stackEnv, waitForEmail } from "@crafter/kit/testing";
import { LeadCapturedSchema } from "@crafter/proto/crafter/events/v1/contacts_pb";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium, signedInContext } from "./support";

// Issue 13's automations in Debian's Chromium against the stack: a marketer builds an automation
// from the welcome-series template (the Create menu's "Automation (from templates)"), is warned that
// its emails need the business's postal address until the profile has one, drops its
// two-day wait in the flow builder, saves and activates it; a lead is captured (LeadCaptured on
// Kafka, as the contacts service publishes it), the welcome email reaches Mailpit, and the run
// history and the list show the run. The list is then read 390 px wide.

const env = stackEnv();
let browser: Browser;
let page: Page;
let session: GatewaySession;
let publisher: Publisher;
let automationId = "";
let profileId = "";
const lead = { userId: "", projectId: "", contactId: "", email: `e2e-lead-${randomUUID().slice(0, 8)}@example.test` };
const step = browserStep("automations", () => page);

beforeAll(async () => {
  browser = await launchChromium();
  ({ page, session } = await signedInContext(browser, "automations-e2e"));
  page.setDefaultTimeout(60_000);
  const kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "automations-e2e", createLogger("t", "silent"));
  publisher = await createPublisher(kafka);
}, 120_000);

afterAll(async () => {
  await publisher?.disconnect();
  await browser?.close();
});

describe("an automation from a template", () => {
  step("a project and a subscribed contact exist", async () => {
    const project = await session.post("/api/projects/createProject", {
      name: "Crumb & Co. Bakery",
      description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
    });
    expect(project.status).toBe(201);
    lead.projectId = project.body.result.project.projectId;
    profileId = project.body.result.profile.profileId;
    const contact = await session.post("/api/contacts", { email: lead.email, firstName: "Grace" });
    expect(contact.status).toBe(201);
    lead.contactId = contact.body.result.id;
    await session.request("PATCH", `/api/contacts/${lead.contactId}`, { consent: "subscribed" });
    const token = [...session.cookies].find(([name]) => name === "crafter_at")?.[1] ?? "";
    lead.userId = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub;
    await page.goto("/app/dashboard");
    await page.getByTestId("dashboard").waitFor();
  });

  step("the Create menu's templates page makes a draft from the welcome series", async () => {
    await page.goto("/app/automation/templates");
    await page.getByTestId("automation-template-welcome-series").waitFor();
    await page.getByTestId("automation-template-use-welcome-series").click();
    await page.waitForURL(/\/app\/automation\/[0-9a-f-]{36}$/);
    automationId = page.url().split("/").pop()!;
    await expect(page.getByTestId("automation-name").inputValue()).resolves.toBe("Welcome series");
    await expect(page.getByTestId("automation-status").textContent()).resolves.toBe("draft");
  });

  step("without the business's postal address the builder warns and offers no Activate", async () => {
    const warning = page.getByTestId("automation-address-missing");
    await warning.waitFor();
    await expect(warning.getByRole("link", { name: "Add the address" }).getAttribute("href")).resolves.toBe(
      "/app/business/profile",
    );
    await expect(page.getByTestId("automation-toggle").isDisabled()).resolves.toBe(true);
    const address = await session.request("PATCH", `/api/profiles/${profileId}`, {
      values: { address: "1 Mill Lane, Bristol" },
    });
    expect(address.status).toBe(200);
    await page.reload();
    await page.getByTestId("automation-name").waitFor();
    await expect(page.getByTestId("automation-address-missing").count()).resolves.toBe(0);
  });

  step("the builder drops the two-day wait, saves and activates", async () => {
    await page.getByTestId("step-wait-2d").waitFor();
    await page.getByRole("button", { name: "Remove wait-2d" }).click();
    await expect(page.getByTestId("step-wait-2d").count()).resolves.toBe(0);
    await page.getByTestId("automation-save").click();
    await page.getByText("Automation saved").waitFor();
    await page.getByTestId("automation-toggle").click();
    await page.getByTestId("automation-status").getByText("active").waitFor();
  });

  step("a captured lead gets the welcome email and the run shows in its history", async () => {
    const payload = toBinary(LeadCapturedSchema, {
      $typeName: "crafter.events.v1.LeadCaptured",
      ...lead,
      source: "lead form",
      originId: "form-1",
    });
    await publisher.publish(
      topicName(env.CRAFTER_NAMESPACE ?? "crafter_test", TOPICS.contactsLead),
      lead.contactId,
      Buffer.from(payload),
      {
        ce_id: randomUUID(),
        ce_type: LeadCapturedSchema.typeName,
        ce_source: "contacts",
        ce_time: new Date().toISOString(),
      },
    );
    const welcome = await waitForEmail(lead.email, "Welcome to", 60_000);
    expect(welcome.HTML).toContain("Grace");
    await waitForEmail(lead.email, "A few ideas to get started", 60_000);

    await page.getByRole("tab", { name: "Run history" }).click();
    const runs = page.getByTestId("automation-runs");
    await runs.getByText(lead.email).waitFor();
    // The run page polls while a run is under way.
    await runs.getByText("completed").waitFor();
  });

  step("the list shows it active with one completed run, 390 px wide", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/app/automation");
    const table = page.getByTestId("automations-table");
    await table.getByText("Welcome series").waitFor();
    await expect(page.getByTestId(`automation-status-${automationId}`).textContent()).resolves.toBe("active");
    const row = table.locator("tr", { hasText: "Welcome series" });
    await expect(row.locator("td").nth(4).textContent()).resolves.toBe("1");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });

  step(
    "the builder offers a segment, a campaign and a date field for the new triggers, and says what is missing",
    async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      const segment = await session.post(`/api/segments?projectId=${lead.projectId}`, {
        name: "Regulars",
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "regular" }] },
      });
      expect(segment.status).toBeLessThan(300);
      const fields = await session.put(`/api/contacts/settings/custom-fields?projectId=${lead.projectId}`, [
        { key: "birthday", label: "Birthday", type: "date" },
      ]);
      expect(fields.status).toBe(200);
      await page.goto("/app/automation/new");
      const open = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)");
      const pick = async (testId: string, option: string) => {
        const select = page.getByTestId(testId);
        // Until the select shows the choice: a click can land while the list is still opening.
        for (let attempt = 0; attempt < 3 && !((await select.textContent()) ?? "").includes(option); attempt++) {
          await select.click();
          // The open dropdown only: a closed one keeps its options in the page, hidden.
          await open.locator(".ant-select-item-option", { hasText: option }).first().click();
          // Until the list has closed, its options would still match the next pick's text.
          for (let i = 0; i < 50 && (await open.count()) > 0; i++) await page.waitForTimeout(100);
        }
        await expect(select.textContent()).resolves.toContain(option);
      };
      await pick("automation-trigger", "A contact enters a segment");
      await page.getByTestId("automation-save").click();
      await expect(page.getByTestId("automation-trigger-error").textContent()).resolves.toBe("Choose a segment");
      await pick("automation-segment", "Regulars");
      await pick("automation-trigger", "An email is opened");
      await page.getByTestId("automation-campaign").getByText("Any email of this project").waitFor();
      await pick("automation-trigger", "A date field comes round");
      await page.getByTestId("automation-save").click();
      await expect(page.getByTestId("automation-trigger-error").textContent()).resolves.toBe("Choose a date field");
      await pick("automation-date-field", "Birthday");
      await page.getByRole("spinbutton", { name: "Days before (-) or after" }).fill("-3");
      await page.getByText("3 days before, in UTC").waitFor();
      await page.getByTestId("automation-save").click();
      await page.getByText("Automation saved").waitFor();
      await page.waitForURL(/\/app\/automation\/[0-9a-f-]{36}$/);
      const saved = await session.get(`/api/automations/${page.url().split("/").pop()}`);
      expect(saved.body.result.trigger).toEqual({ kind: "date_field", field: "custom.birthday", offsetDays: -3 });
    },
  );
});
