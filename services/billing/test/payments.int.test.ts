// Payments for real: a running stack (scripts/stack.mjs) whose billing talks to stripe-mock
// (scripts/infra), driven through the gateway like the web does. stripe-mock checks every request
// billing sends against Stripe's API but keeps nothing and sends no webhooks, so this test sends
// the webhooks Stripe would, signed with the stack's webhook secret (STRIPE_WEBHOOK_SECRET).
import { randomUUID } from "node:crypto";
import { createServiceClient, describeError } from "@crafter/kit";
import {
  type EnvelopeResponse,
  type GatewaySession,
  gatewayUrl,
  stackEnv,
  stackServiceCredentials,
  verifiedSession,
} from "@crafter/kit/testing";
import { LIMITS, MONTHLY_CREDITS, type PlanKey } from "@crafter/plans";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import Stripe from "stripe";

jest.setTimeout(120_000);

const env = stackEnv();
const secret = env.STRIPE_WEBHOOK_SECRET ?? "whsec_crafter_local";
// Only for signing (no request is made with it).
const signer = new Stripe("sk_test_signer");
const media = createServiceClient(BillingService, env.BILLING_URL!, {
  timeoutMs: 30_000,
  as: "service",
  credentials: stackServiceCredentials("media"),
});
const notifications = createServiceClient(BillingService, env.BILLING_URL!, {
  timeoutMs: 30_000,
  as: "service",
  credentials: stackServiceCredentials("notifications"),
});

const seconds = (date = new Date()) => Math.floor(date.getTime() / 1000);
const DAY = 86_400;

/** Posts a Stripe event to the gateway's webhook endpoint, signed as Stripe signs it (or not). */
async function deliver(event: object, signature?: string): Promise<EnvelopeResponse> {
  const payload = JSON.stringify(event);
  const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(`${gatewayUrl()}/api/billing/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header },
    body: payload,
  });
  return {
    status: response.status,
    body: (await response.json()) as EnvelopeResponse["body"],
    headers: response.headers,
  };
}

const event = (type: string, object: object, created = seconds()) => ({
  id: `evt_${randomUUID().replaceAll("-", "")}`,
  object: "event",
  api_version: "2026-10-28.endive",
  type,
  created,
  livemode: false,
  data: { object },
});

/** A Stripe subscription object as the webhooks carry it (the price's lookup key is the plan key). */
function subscription(
  user: Customer,
  planKey: PlanKey,
  extra: { status?: string; cancel_at_period_end?: boolean } = {},
) {
  const periodEnd = seconds() + 30 * DAY;
  return {
    id: user.subscriptionId,
    object: "subscription",
    customer: user.customerId,
    status: extra.status ?? "active",
    cancel_at_period_end: extra.cancel_at_period_end ?? false,
    metadata: { userId: user.userId, planKey },
    items: {
      object: "list",
      data: [
        {
          id: `si_${user.userId.slice(0, 8)}`,
          object: "subscription_item",
          current_period_start: seconds(),
          current_period_end: periodEnd,
          price: { id: `price_${planKey}`, object: "price", lookup_key: planKey, currency: "usd" },
        },
      ],
    },
  };
}

interface Customer {
  session: GatewaySession;
  userId: string;
  customerId: string;
  subscriptionId: string;
}

async function newCustomer(prefix: string): Promise<Customer> {
  const { session } = await verifiedSession(prefix);
  const check = await session.get("/auth/check");
  const userId = check.body.result.user.userId as string;
  const tag = randomUUID().replaceAll("-", "").slice(0, 14);
  return { session, userId, customerId: `cus_${tag}`, subscriptionId: `sub_${tag}` };
}

/** The user's Checkout for `planKey` completes at Stripe: the webhook Stripe sends then. */
async function subscribe(user: Customer, planKey: PlanKey) {
  const completed = await deliver(
    event("checkout.session.completed", {
      id: `cs_test_${randomUUID().replaceAll("-", "")}`,
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      payment_status: "paid",
      client_reference_id: user.userId,
      customer: user.customerId,
      subscription: user.subscriptionId,
      metadata: { userId: user.userId, planKey },
    }),
  );
  expect(completed.body.result).toEqual({ outcome: "handled", eventType: "checkout.session.completed" });
  const created = await deliver(event("customer.subscription.created", subscription(user, planKey)));
  expect(created.status).toBe(200);
}

const credits = async (user: Customer) => (await user.session.get("/api/user/account")).body.result.credits as number;
const plan = async (user: Customer) => (await user.session.get("/api/billing/subscription")).body.result;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return describeError(error).code;
  }
}

describe("plans", () => {
  it("serves the plan cards from @crafter/plans in USD, without a session", async () => {
    const response = await fetch(`${gatewayUrl()}/api/billing/plans`);
    const body = (await response.json()) as EnvelopeResponse["body"];
    expect(response.status).toBe(200);
    expect(body.result.currency).toBe("usd");
    expect(
      body.result.plans.map((p: { planKey: object; monthlyPrice: number; yearlyPrice: number }) => [
        p.planKey,
        p.monthlyPrice,
        p.yearlyPrice,
      ]),
    ).toEqual([
      [{ monthly: "CoreMonthly_v1", yearly: "CoreYearly_v1" }, 29, 24.17],
      [{ monthly: "ProMonthly", yearly: "ProYearly" }, 59, 49.17],
    ]);
    expect(body.result.plans[0].yearlySavings).toBe(17);
    expect(body.result.creditPacks.length).toBeGreaterThan(0);
  });
});

describe("checkout, upgrade, downgrade and cancel (stripe-mock + signed webhooks)", () => {
  let user: Customer;
  beforeAll(async () => {
    user = await newCustomer("pay-sub");
  });

  it("starts Stripe Checkout for a plan; refuses unknown plans", async () => {
    const checkout = await user.session.post("/api/billing/checkout", {
      kind: "subscription",
      planKey: "CoreMonthly_v1",
      source: "upgrade_modal",
    });
    expect(checkout.status).toBe(200);
    // Billing talks to stripe-mock, which hosts no payment page: the gateway's local test checkout.
    expect(checkout.body.result.url).toMatch(/\/checkout\/test\/ck_[A-Za-z0-9_-]{32}$/);
    expect(checkout.body.result.sessionId).toMatch(/^cs_/);
    const bad = await user.session.post("/api/billing/checkout", { kind: "subscription", planKey: "Gold" });
    expect(bad.status).toBe(400);
    // No subscription yet: nothing to change or cancel.
    expect((await user.session.post("/api/billing/subscription/change", { planKey: "ProMonthly" })).status).toBe(404);
  });

  it("subscribes when Stripe says Checkout completed: Core, its limits and its monthly credits", async () => {
    expect(await plan(user)).toMatchObject({ tier: "free", status: "none" });
    const before = await credits(user);
    await subscribe(user, "CoreMonthly_v1");
    expect(await plan(user)).toMatchObject({ tier: "core", planKey: "CoreMonthly_v1", status: "active" });
    expect((await plan(user)).currentPeriodEnd).not.toBeNull();
    const account = await user.session.get("/api/user/account");
    expect(account.body.result.isSubscribed).toBe(true);
    expect(account.body.result.credits).toBe(before + MONTHLY_CREDITS.core);
    const got = await notifications.getPlan({ userId: user.userId });
    expect(got.tier).toBe("core");
    expect(got.limits?.profiles).toBe(LIMITS.core.profiles);
    // A second subscription Checkout is refused: the plan is changed instead.
    const again = await user.session.post("/api/billing/checkout", { kind: "subscription", planKey: "ProMonthly" });
    expect(again.status).toBe(409);
  });

  it("upgrades to Pro (prorated at Stripe), then applies it from the webhook with Pro's extra credits once", async () => {
    const before = await credits(user);
    const change = await user.session.post("/api/billing/subscription/change", { planKey: "ProMonthly" });
    expect(change.status).toBe(200);
    expect(change.body.result).toEqual({ planKey: "ProMonthly", direction: "upgrade" });
    // Until Stripe confirms, the plan is still Core.
    expect((await plan(user)).tier).toBe("core");
    const updated = event("customer.subscription.updated", subscription(user, "ProMonthly"));
    expect((await deliver(updated)).body.result.outcome).toBe("handled");
    expect(await plan(user)).toMatchObject({ tier: "pro", planKey: "ProMonthly" });
    expect(await credits(user)).toBe(before + MONTHLY_CREDITS.pro - MONTHLY_CREDITS.core);
    // The same event again (Stripe retries) changes nothing.
    expect((await deliver(updated)).body.result.outcome).toBe("duplicate");
    expect(await credits(user)).toBe(before + MONTHLY_CREDITS.pro - MONTHLY_CREDITS.core);
  });

  it("downgrades to Core yearly: no new credits this month, and an older event does not undo it", async () => {
    const before = await credits(user);
    const change = await user.session.post("/api/billing/subscription/change", { planKey: "CoreYearly_v1" });
    expect(change.body.result).toEqual({ planKey: "CoreYearly_v1", direction: "downgrade" });
    await deliver(event("customer.subscription.updated", subscription(user, "CoreYearly_v1")));
    expect(await plan(user)).toMatchObject({ tier: "core", planKey: "CoreYearly_v1" });
    expect(await credits(user)).toBe(before);
    // Webhooks arrive in any order: a Pro update created earlier is stale.
    const stale = await deliver(
      event("customer.subscription.updated", subscription(user, "ProMonthly"), seconds() - 3600),
    );
    expect(stale.status).toBe(200);
    expect((await plan(user)).planKey).toBe("CoreYearly_v1");
  });

  it("cancels at the period's end, keeps the plan until Stripe ends it, then is free", async () => {
    const cancel = await user.session.post("/api/billing/subscription/cancel", {});
    expect(cancel.body.result).toEqual({ cancelAtPeriodEnd: true });
    await deliver(
      event("customer.subscription.updated", subscription(user, "CoreYearly_v1", { cancel_at_period_end: true })),
    );
    expect(await plan(user)).toMatchObject({ tier: "core", cancelAtPeriodEnd: true });
    await deliver(event("customer.subscription.deleted", subscription(user, "CoreYearly_v1", { status: "canceled" })));
    expect(await plan(user)).toMatchObject({ tier: "free", status: "canceled" });
    expect((await user.session.get("/api/user/account")).body.result.isSubscribed).toBe(false);
    expect((await notifications.getPlan({ userId: user.userId })).tier).toBe("free");
  });

  it("opens Stripe's customer portal for a customer", async () => {
    const portal = await user.session.post("/api/billing/portal", {});
    expect(portal.status).toBe(200);
    expect(portal.body.result.url).toMatch(/^https:\/\//);
  });
});

describe("credit packs, invoices and duplicate webhooks", () => {
  it("grants a pack once however often (and concurrently) Stripe delivers the event", async () => {
    const user = await newCustomer("pay-pack");
    const checkout = await user.session.post("/api/billing/checkout", { kind: "credits", packId: "pack_500" });
    expect(checkout.status).toBe(200);
    expect(checkout.body.result.url).toMatch(/\/checkout\/test\/ck_/);
    expect((await user.session.post("/api/billing/checkout", { kind: "credits", packId: "nope" })).status).toBe(400);
    const before = await credits(user);
    const paid = event("checkout.session.completed", {
      id: `cs_test_${randomUUID().replaceAll("-", "")}`,
      object: "checkout.session",
      mode: "payment",
      status: "complete",
      payment_status: "paid",
      client_reference_id: user.userId,
      customer: user.customerId,
      metadata: { userId: user.userId, packId: "pack_500" },
    });
    const outcomes = await Promise.all([deliver(paid), deliver(paid), deliver(paid)]);
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect((await deliver(paid)).body.result.outcome).toBe("duplicate");
    expect(await credits(user)).toBe(before + 500);
    const ledger = await user.session.get("/api/billing/ledger?page=1&pageSize=5");
    expect(ledger.body.result.result[0]).toMatchObject({ kind: "grant", delta: 500, source: "pack", expiresAt: null });
    expect(ledger.body.result.meta.count).toBeGreaterThanOrEqual(2);

    // The pack's invoice, paid, in the payment history (found by the customer Checkout named).
    const invoiceId = `in_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const invoice = {
      id: invoiceId,
      object: "invoice",
      customer: user.customerId,
      amount_paid: 1000,
      amount_due: 1000,
      currency: "usd",
      status: "paid",
      number: "CRAFT-0001",
      created: seconds(),
      hosted_invoice_url: `https://invoice.stripe.com/i/${invoiceId}`,
      invoice_pdf: `https://pay.stripe.com/invoice/${invoiceId}/pdf`,
      lines: { object: "list", data: [{ description: "500 credits" }] },
    };
    // "finalized" arrives after "paid" but is older: the invoice stays paid.
    await deliver(event("invoice.paid", invoice));
    await deliver(event("invoice.finalized", { ...invoice, status: "open", amount_paid: 0 }, seconds() - 60));
    const history = await user.session.get("/api/billing/invoices");
    expect(history.body.result.result).toEqual([
      expect.objectContaining({
        id: invoiceId,
        amountPaid: 1000,
        currency: "usd",
        status: "paid",
        description: "500 credits",
        invoicePdf: invoice.invoice_pdf,
      }),
    ]);
    expect(history.body.result.meta).toEqual({ count: 1, currentPage: 1, totalPages: 1 });
  });

  it("answers 400 to a bad or missing signature and changes nothing", async () => {
    const user = await newCustomer("pay-forged");
    const forged = event("checkout.session.completed", {
      id: "cs_forged",
      mode: "payment",
      payment_status: "paid",
      client_reference_id: user.userId,
      metadata: { packId: "pack_5000" },
    });
    const before = await credits(user);
    expect((await deliver(forged, "t=1,v1=deadbeef")).status).toBe(400);
    expect((await deliver(forged, "")).status).toBe(400);
    const otherSecret = signer.webhooks.generateTestHeaderString({
      payload: JSON.stringify(forged),
      secret: "whsec_other",
    });
    expect((await deliver(forged, otherSecret)).status).toBe(400);
    expect(await credits(user)).toBe(before);
  });
});

describe("the local test checkout (stripe-mock hosts no payment page)", () => {
  const checkoutOf = async (user: Customer, body: object) => {
    const started = await user.session.post("/api/billing/checkout", body);
    expect(started.status).toBe(200);
    return started.body.result as { url: string; sessionId: string; checkoutId: string };
  };
  /** The page's Pay form, as the browser posts it. */
  const pay = (url: string, origin = gatewayUrl()) =>
    fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: "confirm=pay",
    });

  it("shows the plan and its price, and on Pay subscribes through Stripe's signed webhooks", async () => {
    const user = await newCustomer("ck-sub");
    const checkout = await checkoutOf(user, {
      kind: "subscription",
      planKey: "CoreMonthly_v1",
      source: "upgrade_modal",
    });
    expect(checkout.url.startsWith(`${gatewayUrl()}/checkout/test/`)).toBe(true);
    const page = await fetch(checkout.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Subscribe to Crafter Core");
    expect(html).toContain("$29.00");
    expect(html).toContain("per month");
    expect(html).toMatch(/test checkout/i);

    const before = await credits(user);
    const paid = await pay(checkout.url);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(
      `${gatewayUrl()}/app/settings/subscription?checkout=success&source=upgrade_modal&session_id=${checkout.sessionId}`,
    );
    // The webhooks were delivered before the redirect: the plan, its period, limits and credits.
    const now = await plan(user);
    expect(now).toMatchObject({ tier: "core", planKey: "CoreMonthly_v1", status: "active", hasCustomer: true });
    expect(new Date(now.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * DAY * 1000);
    expect((await notifications.getPlan({ userId: user.userId })).limits?.emails).toBe(LIMITS.core.emails);
    expect(await credits(user)).toBe(before + MONTHLY_CREDITS.core);
    const invoices = (await user.session.get("/api/billing/invoices")).body.result;
    expect(invoices.result).toEqual([
      expect.objectContaining({ amountPaid: 2900, currency: "usd", status: "paid", description: "Crafter Core" }),
    ]);

    // Single use: paying again changes nothing (the same events, handled once), and the page says it is paid.
    expect((await pay(checkout.url)).status).toBe(303);
    expect(await credits(user)).toBe(before + MONTHLY_CREDITS.core);
    expect((await user.session.get("/api/billing/invoices")).body.result.meta.count).toBe(1);
    expect(await (await fetch(checkout.url)).text()).toContain('data-testid="checkout-complete"');
  });

  it("tells packs and buyers apart by Crafter's own checkout, not by Stripe's session id", async () => {
    const ana = await newCustomer("ck-pack-a");
    const ben = await newCustomer("ck-pack-b");
    const first = await checkoutOf(ana, { kind: "credits", packId: "pack_500" });
    const second = await checkoutOf(ana, { kind: "credits", packId: "pack_1500" });
    const bens = await checkoutOf(ben, { kind: "credits", packId: "pack_500" });
    expect(new Set([first.checkoutId, second.checkoutId, bens.checkoutId]).size).toBe(3);
    const page = await (await fetch(second.url)).text();
    expect(page).toContain("Buy 1,500 credits");
    expect(page).toContain("$25.00");

    const [anaBefore, benBefore] = [await credits(ana), await credits(ben)];
    // Two Pay clicks at once, then the other checkouts.
    const twice = await Promise.all([pay(first.url), pay(first.url)]);
    expect(twice.map((r) => r.status)).toEqual([303, 303]);
    expect(twice[0]!.headers.get("location")).toBe(
      `${gatewayUrl()}/app/settings/wallet?checkout=success&session_id=${first.sessionId}`,
    );
    expect((await pay(second.url)).status).toBe(303);
    expect((await pay(bens.url)).status).toBe(303);
    expect(await credits(ana)).toBe(anaBefore + 500 + 1500);
    expect(await credits(ben)).toBe(benBefore + 500);
    const history = (await ana.session.get("/api/billing/invoices")).body.result.result as Array<{
      amountPaid: number;
      description: string;
      id: string;
    }>;
    expect(history.map((i) => i.amountPaid).sort()).toEqual([1000, 2500]);
    expect(new Set(history.map((i) => i.id)).size).toBe(2);
    expect((await ben.session.get("/api/billing/invoices")).body.result.meta.count).toBe(1);
    const ledger = (await ana.session.get("/api/billing/ledger?page=1&pageSize=5")).body.result.result;
    expect(
      ledger.filter((item: { source: string }) => item.source === "pack").map((i: { delta: number }) => i.delta),
    ).toEqual([1500, 500]);
  });

  it("answers 404 for unknown or malformed ids, refuses a cross-site Pay, and refuses a second subscription", async () => {
    for (const id of ["ck_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "nope", "ck_%2e%2e"]) {
      const missing = await fetch(`${gatewayUrl()}/checkout/test/${id}`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("not valid");
      expect((await pay(`${gatewayUrl()}/checkout/test/${id}`)).status).toBe(404);
    }
    // A control character never reaches the page (the gateway's request guard).
    expect((await fetch(`${gatewayUrl()}/checkout/test/ck_%00`)).status).toBe(400);
    const user = await newCustomer("ck-twice");
    const one = await checkoutOf(user, { kind: "subscription", planKey: "CoreMonthly_v1" });
    const two = await checkoutOf(user, { kind: "subscription", planKey: "ProMonthly" });
    expect((await pay(one.url, "https://evil.example")).status).toBe(403);
    expect((await pay(one.url)).status).toBe(303);
    const refused = await pay(two.url);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("already have a subscription");
    expect(await plan(user)).toMatchObject({ tier: "core", planKey: "CoreMonthly_v1" });
  });
});

describe("each limit and its upgrade scenario, on the plan the webhooks set", () => {
  const reserve = (userId: string, counter: string, amount: number) =>
    codeOf(media.reserveUsage({ userId, counter, amount, key: randomUUID() }));

  it("free: FREE_USER_LIMIT (suggests Core)", async () => {
    const user = await newCustomer("limit-free");
    expect(await reserve(user.userId, "ai_images", LIMITS.free.ai_images)).toBe("ok");
    expect(await reserve(user.userId, "ai_images", 1)).toBe("FREE_USER_LIMIT");
  });

  it("core: CORE_EMAILS_LIMIT, CORE_AI_IMAGES_LIMIT, CORE_VOICE_MINUTES_LIMIT (suggest Pro); profiles from GetPlan", async () => {
    const user = await newCustomer("limit-core");
    await subscribe(user, "CoreMonthly_v1");
    const sends = (amount: number) =>
      codeOf(notifications.reserveUsage({ userId: user.userId, counter: "emails", amount, key: randomUUID() }));
    expect(await sends(LIMITS.core.emails)).toBe("ok");
    expect(await sends(1)).toBe("CORE_EMAILS_LIMIT");
    expect(await reserve(user.userId, "ai_images", LIMITS.core.ai_images)).toBe("ok");
    expect(await reserve(user.userId, "ai_images", 1)).toBe("CORE_AI_IMAGES_LIMIT");
    expect(await reserve(user.userId, "voice_minutes", LIMITS.core.voice_minutes + 1)).toBe("CORE_VOICE_MINUTES_LIMIT");
    // Contacts counts profiles itself against GetPlan's limit (CORE_CONTACTS_LIMIT is its code).
    expect((await notifications.getPlan({ userId: user.userId })).limits?.profiles).toBe(LIMITS.core.profiles);
  });

  it("pro: PLAN_LIMIT_REACHED (nothing bigger to suggest)", async () => {
    const user = await newCustomer("limit-pro");
    await subscribe(user, "ProYearly");
    expect(await reserve(user.userId, "ai_images", LIMITS.pro.ai_images)).toBe("ok");
    expect(await reserve(user.userId, "ai_images", 1)).toBe("PLAN_LIMIT_REACHED");
  });
});
