/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { GatewaySession, gatewayUrl, linkFrom, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type LocalDns, startLocalDns } from "./dns";
import { atBothWidths, launchChromium, signedInContext } from "./support";

// A new user's custom domain in Chromium: a page published (through the API), the domain added in
// Settings › Integrations (a root domain refused as typed), the records the panel shows given to the
// local DNS server (first a wrong CNAME, then the right ones), Check now verifies it, and the page
// answers on that host in a browser that resolves it to the gateway; a domain not verified answers
// nothing, and Remove stops serving at once.
jest.setTimeout(60_000);

const run = randomUUID().slice(0, 8);
const domain = `www.bikes-${run}.example.co.uk`;
const apex = `bikes-${run}.co.uk`;
const slug = `town-bikes-${run}`;
const gateway = new URL(gatewayUrl());

let dns: LocalDns;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;

async function adminSession(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const admin = new GatewaySession();
  await admin.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return admin;
}

/** A Web Page Writer craft completed with the offline engine and published at `slug`. */
async function publishPage(): Promise<void> {
  const base = "/api/workflowsV2";
  const created = await session.post(base, { workflowName: "WebPageWriter", craftName: "Commuter bikes" });
  expect(created.status).toBe(201);
  const id: string = created.body.result.craftId;
  const values: Record<string, Record<string, unknown>> = {
    brief: {
      pageType: "landing",
      offering: "Commuter bikes",
      description: "Commuter bikes for riding to work every day.",
      audience: "commuters",
      benefits: ["Ride to work in comfort"],
      features: ["Steel frame"],
      painPoints: ["crowded buses"],
      offer: "Free fitting",
      cta: "shopNow",
      url: "https://bikes.example.com/",
      keywords: ["commuter bike"],
    },
    outline: { headline: "Commuter bikes that last", sections: ["Hero", "What you get"] },
  };
  let craft = created.body.result;
  for (let guard = 0; craft.state !== "Completed" && guard < 10; guard++) {
    const stepName: string = craft.currentStep;
    const done = await session.put(`${base}/${id}/step/complete`, { stepName, values: values[stepName] ?? {} });
    expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
    craft = done.body.result.craft;
  }
  expect((await session.put(`${base}/${id}/page`, { slug })).status).toBe(200);
}

/** The gateway's answer to a GET as a browser on `host` sends it (the Host header the ingress passes on). */
function getOnHost(host: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, gateway), { headers: { host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

const panel = () => page.getByTestId("custom-domain-panel");
const record = (type: string) => panel().locator(`[data-testid="custom-domain-record"][data-type="${type}"]`);
const recordResult = (type: string) => record(type).getByTestId("custom-domain-record-result");
const recordValue = async (type: string) =>
  (await record(type).getByTestId("custom-domain-record-value").textContent()) ?? "";

beforeAll(async () => {
  dns = await startLocalDns();
  // The browser reaches the custom domain at the gateway, as the domain's CNAME would send it.
  browser = await launchChromium([`--host-resolver-rules=MAP ${domain} 127.0.0.1`]);
  ({ context, page, session } = await signedInContext(browser, "domain-e2e", {
    viewport: { width: 1366, height: 850 },
  }));
  const [created, admin] = await Promise.all([
    session.post("/api/projects/createProject", { name: "Town Bikes", description: "Bikes for the town" }),
    adminSession(),
  ]);
  expect(created.status).toBe(201);
  const userId = (await session.get("/auth/check")).body.result.user.userId;
  expect(
    (await admin.put(`/api/admin/users/${userId}/flags`, { flag: "custom_domain_integration", enabled: true })).status,
  ).toBe(200);
  await publishPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await dns?.close();
});

describe("a custom domain from Settings › Integrations", () => {
  it("refuses a root domain as typed, saying why, and adds a name under one with its records", async () => {
    await page.goto("/app/settings/integrations");
    const input = panel().getByTestId("custom-domain-input");
    await input.fill(apex);
    await page.getByText(`${apex} is a root domain: DNS allows no CNAME record there.`).waitFor();
    await atBothWidths(page, "custom-domain-form");
    await input.fill(` WWW.Bikes-${run}.Example.co.uk `);
    await page.getByText(`Your pages will answer at https://${domain}/`).waitFor();
    await panel().getByTestId("custom-domain-add").click();
    await panel().locator('[data-testid="custom-domain-details"][data-status="pending"]').waitFor();
    expect(await panel().getByTestId("custom-domain-name").textContent()).toBe(domain);
    const cname = record("CNAME");
    expect(await cname.textContent()).toContain(domain);
    expect(await cname.textContent()).toContain("Host field: www.bikes");
    expect(await recordValue("CNAME")).toBe(gateway.hostname);
    expect(await recordValue("TXT")).toMatch(/^crafter-verification=/);
    await atBothWidths(page, "custom-domain-pending");
    // Added pending: not served yet.
    expect((await getOnHost(domain, `/${slug}`)).status).toBe(404);
  });

  it("shows a wrong value and a missing record, then verifies once the records are right (Check now)", async () => {
    dns.publishCname(domain, "elsewhere.example.net");
    await panel().getByTestId("custom-domain-check").click();
    await record("CNAME").locator('[data-testid="custom-domain-record-result"][data-state="wrong_value"]').waitFor();
    expect(await recordResult("CNAME").textContent()).toBe("Wrong valueFound elsewhere.example.net");
    expect(await recordResult("TXT").getAttribute("data-state")).toBe("not_found");
    expect(await panel().getByTestId("custom-domain-checked-at").textContent()).toMatch(/^Last checked /);

    // The records as the panel shows them, given to the DNS server.
    dns.publishCname(domain, (await recordValue("CNAME")) ?? "");
    dns.publish(`_crafter-verification.${domain}`, (await recordValue("TXT")) ?? "");
    await panel().getByTestId("custom-domain-check").click();
    await panel().locator('[data-testid="custom-domain-details"][data-status="verified"]').waitFor();
    expect(await recordResult("CNAME").getAttribute("data-state")).toBe("found");
    expect(await recordResult("TXT").getAttribute("data-state")).toBe("found");
    expect(await panel().getByTestId("custom-domain-home").textContent()).toBe(`https://${domain}/`);
    expect(await panel().getByTestId("custom-domain-page-url").allTextContents()).toEqual([
      `https://${domain}/${slug}`,
    ]);
    await atBothWidths(page, "custom-domain-verified");
  });

  it("serves the published page on the verified domain, and nothing on a domain nobody verified", async () => {
    const site = await context.newPage();
    const answer = await site.goto(`http://${domain}:${gateway.port}/${slug}`);
    expect(answer?.status()).toBe(200);
    expect(await site.locator("h1").first().textContent()).toBe("Commuter bikes that last");
    expect(await site.locator('link[rel="canonical"]').getAttribute("href")).toBe(`https://${domain}/${slug}`);
    await site.close();
    const other = await getOnHost(`www.bikes-${run}.example.net`, `/${slug}`);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain("Commuter bikes");
  });

  it("removes the domain after a confirmation, and serving stops at once", async () => {
    await panel().getByTestId("custom-domain-remove").click();
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await panel().getByTestId("custom-domain-form").waitFor();
    expect((await getOnHost(domain, `/${slug}`)).status).toBe(404);
  });
});
