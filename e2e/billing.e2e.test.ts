/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import { createServiceClient, describeError } from "@crafter/kit";
import {
  GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { MONTHLY_CREDITS } from "@crafter/plans";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import Stripe from "stripe";
import { browserStep, launchChromium } from "./support";

// A free user runs out of credits, meets the upgrade modal (FREE_USER_LIMIT → Core), goes to the
// subscription page with source=upgrade_modal, starts Stripe Checkout and comes back subscribed.
//
// stripe-mock (scripts/infra) answers billing's Checkout request but hosts no payment page and sends
// no webhooks. So where the browser would be on Stripe's page, the test does what Stripe does: it
// answers the hosted page's URL with a stand-in page (Stripe's, not ours), posts the signed
// `checkout.session.completed` and `customer.subscription.created` webhooks for the session the app
// created, and then follows the success URL back to the app, as Stripe's redirect would.

const base = gatewayUrl();
const email = uniqueEmail("billing-e2e");
const password = "a long and honest passphrase";
const secret = stackEnv().STRIPE_WEBHOOK_SECRET ?? "whsec_crafter_local";
const signer = new Stripe("sk_test_signer");

let browser: Browser;
let context: BrowserContext;
let page: Page;
let userId = "";
// Chromium starts slowly on a busy machine; the steps set their own timeouts.
jest.setTimeout(120_000);

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: base });
  page = await context.newPage();
  page.setDefaultTimeout(60_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("billing", () => page);

/** A gateway call with the browser's cookies (Origin + JSON on writes, as the CSRF rules want). */
async function call<T>(method: "GET" | "POST", path: string, body?: unknown) {
  const response = await context.request.fetch(path, {
    method,
    headers: method === "GET" ? {} : { origin: base, "content-type": "application/json" },
    data: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  const envelope = (await response.json()) as { success: boolean; result: T; error: { code: string } | null };
  return { status: response.status(), ...envelope };
}

/** What Stripe does once the user paid: its webhook, signed with the endpoint's secret. */
async function stripeSends(type: string, object: object) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const response = await fetch(`${base}/api/billing/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
  });
  expect(response.status).toBe(200);
}

async function headerCredits(): Promise<number> {
  const tag = page.getByTestId("credits");
  await tag.waitFor();
  return Number(await tag.getAttribute("data-credits"));
}

describe("upgrade from the modal through Stripe Checkout", () => {
  step("signs up (API), verifies and signs in (UI)", async () => {
    const session = new GatewaySession(base);
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

  step("spends its free credits, and the upgrade link shows the subscription page suggesting Core", async () => {
    // Offline drafts cost nothing (issue 12), so on this provider-less stack nothing in the app
    // spends credits: spend them as provider generations would, through billing's Debit with the
    // workflows service's token. (The modal's mapping to this link is unit-tested in upgrade.test.ts.)
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

    await page.goto("/app/settings/subscription?source=upgrade_modal&plan=core");
    await page.getByTestId("upgrade-source").waitFor();
    await page.getByTestId("plan-suggested").waitFor();
    expect(await page.getByTestId("current-tier").getAttribute("data-tier")).toBe("free");
    expect(await headerCredits()).toBe(0);
  });

  step("shows the cards from billing with the monthly/yearly toggle", async () => {
    expect(await page.getByTestId("plan-core-price").textContent()).toBe("$29");
    await page
      .getByTestId("billing-period")
      .getByText(/^Yearly/)
      .click();
    expect(await page.getByTestId("plan-core-price").textContent()).toBe("$24.17");
    expect(await page.getByTestId("plan-core").getAttribute("data-plan-key")).toBe("CoreYearly_v1");
    await page.getByTestId("billing-period").getByText("Monthly").click();
    expect(await page.getByTestId("plan-pro").getAttribute("data-plan-key")).toBe("ProMonthly");
  });

  step("goes to Stripe Checkout and comes back subscribed to Core", async () => {
    // Stripe's hosted page (no network here): a stand-in that only says where the browser is.
    await context.route("https://checkout.stripe.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Stripe Checkout</title><h1>Stripe Checkout</h1>" }),
    );
    // The page leaves for Stripe as soon as billing answers, and a response's body is gone after that
    // navigation: read the answer on its way to the page instead.
    let answered: (body: { result: { url: string; sessionId: string } }) => void = () => undefined;
    const checkoutAnswer = new Promise<{ result: { url: string; sessionId: string } }>((resolve) => {
      answered = resolve;
    });
    await page.route("**/api/billing/checkout", async (route) => {
      const response = await route.fetch();
      answered(await response.json());
      await route.fulfill({ response });
    });
    await page.getByTestId("subscribe-core").click();
    const checkout = await checkoutAnswer;
    await page.waitForURL("https://checkout.stripe.com/**");
    await page.unroute("**/api/billing/checkout");

    // The user pays; Stripe tells billing, then sends the browser back to the success URL.
    const customer = `cus_${randomUUID().replaceAll("-", "").slice(0, 14)}`;
    const subscription = `sub_${randomUUID().replaceAll("-", "").slice(0, 14)}`;
    await stripeSends("checkout.session.completed", {
      id: checkout.result.sessionId,
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      payment_status: "paid",
      client_reference_id: userId,
      customer,
      subscription,
      metadata: { userId, planKey: "CoreMonthly_v1" },
    });
    await stripeSends("customer.subscription.created", {
      id: subscription,
      object: "subscription",
      customer,
      status: "active",
      cancel_at_period_end: false,
      metadata: { userId, planKey: "CoreMonthly_v1" },
      items: {
        object: "list",
        data: [
          {
            id: "si_e2e",
            current_period_end: Math.floor(Date.now() / 1000) + 30 * 86_400,
            price: { id: "price_core", lookup_key: "CoreMonthly_v1" },
          },
        ],
      },
    });
    await page.goto(
      `/app/settings/subscription?checkout=success&source=upgrade_modal&session_id=${checkout.result.sessionId}`,
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid="current-tier"]')?.getAttribute("data-tier") === "core",
    );
    expect(await page.getByTestId("current-plan-key").textContent()).toBe("CoreMonthly_v1");
    await page.getByTestId("current-core").waitFor();
    expect(await page.getByTestId("checkout-pending").count()).toBe(0);
    // The plan's monthly credits are in the header and the wallet's history.
    await page.goto("/app/settings/wallet");
    expect(await headerCredits()).toBe(MONTHLY_CREDITS.core);
    await page.getByTestId("wallet-history").getByText("Monthly plan credits").waitFor();
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
