/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GatewaySession, linkFrom, stackEnv, waitForEmail } from "@crafter/kit/testing";
import { LocalOAuthServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { type LocalDns, startLocalDns } from "./dns";
import { launchChromium, signedInContext } from "./support";

// Settings › Integrations in Chromium through the gateway and the tests' local OAuth provider
// (standing in for Google at GOOGLE_BASE_URL): only integrations whose flag is on, "not configured
// on this server", connect through the provider's consent and back, a refusal shown, disconnect
// with a confirmation revoking the grant; at 1366 and 390 px nothing scrolls sideways.
jest.setTimeout(180_000);

const shots = "/tmp/connections";
const env = stackEnv();
const base = new URL(env.GOOGLE_BASE_URL ?? "http://oauth.crafter.test:28045");
const provider = new LocalOAuthServer({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  account: { sub: "g-7", email: "owner@leeds-bikes.example", name: "Leeds Bikes" },
});

let browser: Browser;
let context: BrowserContext;
let page: Page;

async function adminSession(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  await provider.start(Number(base.port));
  // The browser reaches the provider's host name as the services do (their pin).
  browser = await launchChromium([`--host-resolver-rules=MAP ${base.hostname} 127.0.0.1`]);
  let session: GatewaySession;
  ({ context, page, session } = await signedInContext(browser, "integrations-e2e", {
    viewport: { width: 1366, height: 850 },
  }));
  expect(
    (await session.post("/api/projects/createProject", { name: "Leeds Bikes", description: "Bikes in Leeds" })).status,
  ).toBe(201);
  const userId = (await session.get("/auth/check")).body.result.user.userId;
  const admin = await adminSession();
  for (const flag of [
    "google_integration",
    "meta_integration",
    "shopify_integration",
    "zapier_integration",
    "custom_domain_integration",
  ])
    expect((await admin.put(`/api/admin/users/${userId}/flags`, { flag, enabled: true })).status).toBe(200);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await provider.stop();
});

async function noSidewaysScroll() {
  // After a resize the app shell re-lays out (the header's project select shrinks): let it settle.
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 5000 })
    .catch(() => undefined);
  const widths = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    view: window.innerWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName}.${element.className}`),
  }));
  expect({ doc: widths.doc <= widths.view ? "fits" : widths.doc, wide: widths.wide }).toEqual({
    doc: "fits",
    wide: [],
  });
}

describe("Settings › Integrations", () => {
  it("lists the integrations whose flag is on, each connectable or not configured", async () => {
    await page.goto("/app/settings/integrations");
    await page.getByTestId("integration-google").waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("integration-tiktok").count()).toBe(0);
    await page.getByTestId("integration-connect-google").waitFor();
    // Meta is configured in the test stack against the local Graph API.
    await page.getByTestId("integration-connect-meta").waitFor();
    // Shopify installs from the store's domain, in its own panel.
    await page.getByTestId("integration-shopify").getByTestId("shopify-install-form").waitFor();
    expect(await page.getByTestId("integration-state-shopify").textContent()).toBe("Not connected");
    expect(await page.getByText("Coming in the next release").count()).toBe(0);
    await noSidewaysScroll();
    await page.screenshot({ path: `${shots}/integrations-1366.png`, fullPage: true });
  });

  it("connects through the provider's consent and comes back connected", async () => {
    await page.getByTestId("integration-connect-google").click();
    await page.waitForURL("**/app/settings/integrations?connected=google");
    expect(await page.getByTestId("integration-return").textContent()).toContain("Google is connected");
    const details = page.getByTestId("integration-details-google");
    await details.waitFor();
    expect(await details.textContent()).toContain("Connected as owner@leeds-bikes.example");
    expect(await details.textContent()).toContain("openid");
    expect(await page.getByTestId("integration-google").getAttribute("data-state")).toBe("connected");
    expect(provider.seen.codeExchanges).toBe(1);
    await page.screenshot({ path: `${shots}/integrations-connected-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll();
    await page.screenshot({ path: `${shots}/integrations-connected-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 850 });
  });

  it("disconnects after a confirmation, revoking the grant at the provider", async () => {
    await page.getByTestId("integration-disconnect-google").click();
    await page.getByRole("button", { name: "Disconnect", exact: true }).last().click();
    await page.getByText("Google is disconnected").waitFor();
    await page.locator('[data-testid="integration-google"][data-state="not_connected"]').waitFor();
    expect(provider.seen.revoked).toHaveLength(1);
    // Closed, so the next step's phone width is measured without the toast sliding out.
    await page.locator(".ant-notification-notice-close").first().click();
    await page.locator(".ant-notification-notice").waitFor({ state: "detached" });
  });

  it("shows the provider's refusal when the owner does not allow access", async () => {
    provider.deny();
    try {
      await page.getByTestId("integration-connect-google").click();
      await page.waitForURL("**/app/settings/integrations?error=access_denied&provider=google");
      const notice = page.getByTestId("integration-return");
      await notice.waitFor();
      expect(await notice.textContent()).toContain("You did not allow Crafter to use Google");
      expect(await page.getByTestId("integration-google").getAttribute("data-state")).toBe("not_connected");
      await page.setViewportSize({ width: 390, height: 844 });
      await noSidewaysScroll();
      await page.screenshot({ path: `${shots}/integrations-refused-390.png`, fullPage: true });
    } finally {
      provider.deny(false);
    }
  });
});

// A custom domain: its records checked against the local DNS server at DNS_SERVERS.
describe("Settings › Integrations › Custom domain", () => {
  let dns: LocalDns;

  beforeAll(async () => {
    dns = await startLocalDns();
  });

  afterAll(async () => {
    await dns?.close();
  });

  it("adds a custom domain, shows the records to create, and connects it once they are found", async () => {
    const domain = `www.leeds-${randomUUID().slice(0, 6)}.example`;
    await page.goto("/app/settings/integrations");
    await page.getByTestId("custom-domain-input").fill(domain);
    await page.getByTestId("custom-domain-add").click();
    await page.getByTestId("custom-domain-records").waitFor();
    expect(await page.getByTestId("integration-state-custom_domain").textContent()).toBe("Waiting for DNS records");
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll();
    await page.screenshot({ path: `${shots}/integrations-domain-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 850 });
    const records = await page.getByTestId("custom-domain-record").evaluateAll((rows) =>
      rows.map((row) => ({
        type: row.getAttribute("data-type"),
        name: row.querySelector('[data-testid="custom-domain-record-name"] code')?.textContent ?? "",
        value: row.querySelector('[data-testid="custom-domain-record-value"] code')?.textContent ?? "",
      })),
    );
    expect(records.map((record) => record.type).sort()).toEqual(["CNAME", "TXT"]);
    for (const record of records)
      if (record.type === "CNAME") dns.publishCname(record.name, record.value);
      else dns.publish(record.name, record.value);
    await page.getByTestId("custom-domain-check").click();
    await page.locator('[data-testid="custom-domain-panel"][data-state="verified"]').waitFor();
    expect(await page.getByTestId("integration-state-custom_domain").textContent()).toBe("Connected");
    await page.getByTestId("custom-domain-remove").click();
    await page.getByRole("button", { name: "Remove", exact: true }).last().click();
    await page.locator('[data-testid="custom-domain-panel"][data-state="none"]').waitFor();
  });
});

// Webhooks and Zapier: a local receiver at hooks.crafter.test (pinned for the notifications service
// by WEBHOOKS_RESOLVE) verifies what it gets with the Standard Webhooks library.
describe("Settings › Integrations › Webhooks and Zapier", () => {
  const hookShots = "/tmp/webhooks";
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let receiver: Server;
  let url = "";

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    mkdirSync(hookShots, { recursive: true });
    url = `http://hooks.crafter.test:${(receiver.address() as AddressInfo).port}/crafter`;
  });

  afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

  async function receivedAtLeast(count: number) {
    for (let waited = 0; received.length < count && waited < 20_000; waited += 200) await page.waitForTimeout(200);
    expect(received.length).toBe(count);
  }

  it("adds an endpoint and shows its signing secret once", async () => {
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.goto("/app/settings/integrations");
    await page.getByTestId("webhooks-empty").waitFor({ timeout: 90_000 });
    await page.getByTestId("webhook-add").click();
    await page.getByTestId("webhook-url").fill(url);
    await page.getByTestId("webhook-events").getByText("contact.created").click();
    await page.getByTestId("webhook-add-submit").click();
    const secret = await page.getByTestId("webhook-secret-value").textContent();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByTestId("webhook-endpoint");
    expect(await row.getByTestId("webhook-endpoint-url").textContent()).toBe(url);
    expect(await row.textContent()).toContain(`whsec_…${secret!.slice(-4)}`);
    await noSidewaysScroll();
    await page.screenshot({ path: `${hookShots}/webhooks-1366.png`, fullPage: true });

    await page.getByTestId("webhook-test").click();
    await page.getByText("Test event sent: see the delivery log").waitFor();
    await receivedAtLeast(1);
    const test = received[0]!;
    expect(new Webhook(secret!).verify(test.body, test.headers as Record<string, string>)).toMatchObject({
      type: "webhook.test",
    });
  });

  it("lists the deliveries, resends one, turns the endpoint off and deletes it", async () => {
    await page.getByTestId("webhook-log").click();
    const delivery = page.getByTestId("webhook-delivery").first();
    await delivery.waitFor();
    for (let i = 0; i < 20 && (await delivery.getAttribute("data-status")) !== "succeeded"; i++) {
      await page.getByTestId("webhook-log-refresh").click();
      await page.waitForTimeout(300);
    }
    expect(await delivery.getAttribute("data-status")).toBe("succeeded");
    expect(await delivery.textContent()).toContain("HTTP 204");
    await delivery.getByText("Show the payload").click();
    expect(await page.getByTestId("webhook-payload").textContent()).toContain('"type": "webhook.test"');
    await page.getByTestId("webhook-resend").first().click();
    await receivedAtLeast(2);
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
    await page.screenshot({ path: `${hookShots}/webhooks-log-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${hookShots}/webhooks-log-390.png` });
    await page.getByTestId("webhook-log-close").click();
    await noSidewaysScroll();
    await page.screenshot({ path: `${hookShots}/webhooks-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 850 });

    await page.getByTestId("webhook-toggle").click();
    await page.locator('[data-testid="webhook-endpoint"][data-enabled="false"]').waitFor();
    expect(await page.getByTestId("webhook-test").isDisabled()).toBe(true);
    await page.getByTestId("webhook-delete").click();
    await page.getByTestId("webhook-delete-confirm").click();
    await page.getByTestId("webhooks-empty").waitFor();
  });
});
