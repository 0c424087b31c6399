/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createServiceClient, describeError } from "@crafter/kit";
import {
  GatewaySession,
  gatewayUrl,
  linkFrom,
  repoRoot,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { LIMITS, MONTHLY_CREDITS } from "@crafter/plans";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserStep, launchChromium } from "./support";

// A free user on a fresh machine reaches the free plan's contact limit, meets the upgrade modal
// (FREE_USER_LIMIT → Core), subscribes to Core monthly and pays, then buys a credit pack.
//
// Billing talks to stripe-mock, which hosts no payment page and sends no webhooks, so "Subscribe"
// and "Buy" lead to the gateway's local test checkout: it shows what is bought and its price, and
// its Pay button creates what Stripe's Checkout would (through stripe-mock) and delivers Stripe's
// signed webhooks to /api/billing/webhook before sending the browser back. Nothing is simulated here.

const base = gatewayUrl();
const email = uniqueEmail("billing-e2e");
const password = "a long and honest passphrase";
const shots = join(repoRoot, ".data/e2e-artifacts");

let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: GatewaySession;
let userId = "";
// Chromium starts slowly on a busy machine; the steps set their own timeouts.
jest.setTimeout(180_000);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 850 } });
  page = await context.newPage();
  page.setDefaultTimeout(60_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("billing", () => page);

/** A gateway call with the browser's cookies (Origin + JSON on writes, as the CSRF rules want). */
async function call<T>(method: "GET" | "POST" | "PUT", path: string, body?: unknown) {
  const response = await context.request.fetch(path, {
    method,
    headers: method === "GET" ? {} : { origin: base, "content-type": "application/json" },
    data: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  const envelope = (await response.json()) as { success: boolean; result: T; error: { code: string } | null };
  return { status: response.status(), ...envelope };
}

async function headerCredits(): Promise<number> {
  const tag = page.getByTestId("credits");
  await tag.waitFor();
  return Number(await tag.getAttribute("data-credits"));
}

/** The checkout page at both widths the product supports, kept as artifacts. */
async function screenshots(name: string) {
  for (const [width, height] of [
    [1366, 850],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(shots, `billing-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 850 });
}

describe("a free user subscribes and buys credits on the local test checkout", () => {
  step("signs up (API), verifies and signs in (UI)", async () => {
    session = new GatewaySession(base);
    expect((await session.post("/auth/signup", { email, password, displayName: "Sam" })).status).toBe(200);
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    expect((await session.post("/auth/verify", { token: link.searchParams.get("token") })).status).toBe(200);
    expect((await session.post("/auth/signin", { email, password })).status).toBe(200);
    // A business, so the app opens on its pages rather than the onboarding.
    const project = await session.post("/api/projects/createProject", {
      name: "Linden Street Bakery",
      description: "A neighbourhood bakery baking sourdough, rye and seasonal pastries every morning since 2015.",
      audience: "Neighbours and office workers who want good bread",
      keywords: ["sourdough", "bakery"],
      websiteUrl: "lindenbakery.example.com",
    });
    expect(project.status).toBe(201);
    await page.goto("/signin");
    await page.locator("#signin-email").fill(email);
    await page.locator("#signin-password").fill(password);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/**");
    expect(await headerCredits()).toBeGreaterThan(0);
    userId = (await call<{ user: { userId: string } }>("GET", "/auth/check")).result.user.userId;
  });

  step("spends its free credits and fills the free plan's contacts (API)", async () => {
    // Offline drafts cost nothing (issue 12), so on this provider-less stack nothing in the app
    // spends credits: spend them as provider generations would, through billing's Debit with the
    // workflows service's token, so the wallet's figures below are exact.
    const billing = createServiceClient(BillingService, stackEnv().BILLING_URL!, {
      timeoutMs: 30_000,
      as: "service",
      credentials: stackServiceCredentials("workflows"),
    });
    const credits = await headerCredits();
    await billing.debit({ userId, amount: credits, reason: "e2e:spend", craftId: "", idempotencyKey: "e2e-spend" });
    const refused = await billing
      .debit({ userId, amount: 1, reason: "e2e:spend", craftId: "", idempotencyKey: "e2e-one-more" })
      .then(
        () => "resolved",
        (error) => describeError(error).code,
      );
    expect(refused).toBe("NEED_SUBSCRIPTION");
    // The free plan's contacts, through the import (one file, not 250 requests).
    const rows = Array.from({ length: LIMITS.free.profiles }, (_, i) => `Guest ${i},guest${i}@linden.example`);
    const upload = await context.request.fetch("/api/contacts/imports?name=guests.csv", {
      method: "POST",
      headers: { origin: base, "content-type": "text/csv" },
      data: ["First name,Email", ...rows].join("\n"),
    });
    expect(upload.status()).toBe(201);
    const { id } = ((await upload.json()) as { result: { id: string } }).result;
    expect((await call("PUT", `/api/contacts/imports/${id}`, { duplicates: "skip" })).status).toBe(200);
    let state = { status: "", result: { created: 0 } };
    for (let tries = 0; tries < 120 && state.status !== "result"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      state = (await call<typeof state>("GET", `/api/contacts/imports/${id}`)).result;
    }
    expect(state).toMatchObject({ status: "result", result: { created: LIMITS.free.profiles } });
  });

  step("adding one more contact opens the upgrade modal, which leads to the plans suggesting Core", async () => {
    await page.goto("/app/contacts/add");
    await page.getByTestId("contact-firstName").fill("Robin");
    await page.getByTestId("contact-email").fill("robin@linden.example");
    await page.getByTestId("contact-submit").click();
    const modal = page.getByTestId("upgrade-modal");
    await modal.waitFor();
    expect(await modal.getAttribute("data-scenario")).toBe("FREE_USER_LIMIT");
    await page.getByTestId("upgrade-now").click();
    await page.waitForURL("**/app/settings/subscription?source=upgrade_modal&plan=core");
    await page.getByTestId("upgrade-source").waitFor();
    await page.getByTestId("plan-suggested").waitFor();
    expect(await page.getByTestId("current-tier").getAttribute("data-tier")).toBe("free");
    expect(await page.getByTestId("limit-profiles").textContent()).toBe(`${LIMITS.free.profiles} customer profiles`);
    expect(await page.getByTestId("plan-core-price").textContent()).toBe("$29");
    await page
      .getByTestId("billing-period")
      .getByText(/^Yearly/)
      .click();
    expect(await page.getByTestId("plan-core-price").textContent()).toBe("$24.17");
    expect(await page.getByTestId("plan-core").getAttribute("data-plan-key")).toBe("CoreYearly_v1");
    await page.getByTestId("billing-period").getByText("Monthly").click();
    expect(await page.getByTestId("plan-core").getAttribute("data-plan-key")).toBe("CoreMonthly_v1");
  });

  step(
    "Subscribe opens the test checkout with Core's monthly price; Pay returns subscribed with Core's limits",
    async () => {
      await page.getByTestId("subscribe-core").click();
      await page.waitForURL("**/checkout/test/ck_*");
      await page.getByTestId("test-mode").waitFor();
      expect(await page.title()).toBe("Subscribe to Crafter Core · Test checkout");
      expect(await page.getByTestId("checkout-price").textContent()).toBe("$29.00per month");
      expect(await page.getByTestId("checkout-total").textContent()).toBe("$29.00");
      await screenshots("subscribe");
      // Keyboard: Pay has the focus, Enter pays.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("pay");
      await page.keyboard.press("Enter");
      await page.waitForURL("**/app/settings/subscription?checkout=success&source=upgrade_modal&session_id=cs_*");
      await page.waitForFunction(
        () => document.querySelector('[data-testid="current-tier"]')?.getAttribute("data-tier") === "core",
      );
      expect(await page.getByTestId("current-plan-key").textContent()).toBe("CoreMonthly_v1");
      expect(await page.getByTestId("current-status").textContent()).toBe("active");
      await page.getByTestId("current-core").waitFor();
      expect(await page.getByTestId("limit-profiles").textContent()).toBe("1,000 customer profiles");
      expect(await page.getByTestId("limit-emails").textContent()).toBe("4,000 emails a month");
      await page.getByTestId("checkout-pending").waitFor({ state: "detached" });
      expect(await headerCredits()).toBe(MONTHLY_CREDITS.core);
    },
  );

  step("a credit pack: the test checkout shows the pack and its price, and Cancel returns to the wallet", async () => {
    await page.goto("/app/settings/wallet");
    await page
      .getByTestId("wallet-credits")
      .filter({ hasText: `${MONTHLY_CREDITS.core.toLocaleString("en-US")} credits` })
      .waitFor();
    await page.getByTestId("buy-pack_500").click();
    await page.waitForURL("**/checkout/test/ck_*");
    expect(await page.title()).toBe("Buy 500 credits · Test checkout");
    expect(await page.getByTestId("checkout-total").textContent()).toBe("$10.00");
    await screenshots("pack");
    await page.getByTestId("cancel").click();
    await page.waitForURL("**/app/settings/wallet?checkout=cancelled");
    await page.getByTestId("checkout-cancelled").waitFor();
    expect(await headerCredits()).toBe(MONTHLY_CREDITS.core);
  });

  step("Pay adds the pack's credits to the wallet and its history", async () => {
    await page.getByTestId("buy-pack_500").click();
    await page.waitForURL("**/checkout/test/ck_*");
    await page.getByTestId("pay").click();
    await page.waitForURL("**/app/settings/wallet?checkout=success&session_id=cs_*");
    await page
      .getByTestId("wallet-credits")
      .filter({ hasText: `${(MONTHLY_CREDITS.core + 500).toLocaleString("en-US")} credits` })
      .waitFor();
    await page.getByTestId("wallet-history").getByText("Credit pack").waitFor();
    await page.getByTestId("wallet-history").getByText("Monthly plan credits").waitFor();
    expect(await headerCredits()).toBe(MONTHLY_CREDITS.core + 500);
  });

  step("the payment history lists both payments, paid", async () => {
    await page.goto("/app/settings/payment-history");
    await page.getByTestId("invoices").getByText("500 credits").waitFor();
    await page.getByTestId("invoices").getByText("Crafter Core").waitFor();
    const amounts = await page.getByTestId("invoice-amount").allTextContents();
    expect(amounts.sort()).toEqual(["$10.00", "$29.00"]);
    expect(await page.getByTestId("invoice-status").allTextContents()).toEqual(["paid", "paid"]);
  });

  step("crafting works again: the assistant answers", async () => {
    await page.getByTestId("assistant-open").click();
    const before = await page.getByTestId("assistant-message").count();
    await page
      .getByTestId("assistant-input")
      .locator("textarea")
      .or(page.getByTestId("assistant-input"))
      .first()
      .fill("And for June?");
    await page.getByTestId("assistant-send").click();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="assistant-message"]').length >= count + 2,
      before,
    );
  });
});
