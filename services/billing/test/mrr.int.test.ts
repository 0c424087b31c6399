// Admin's MRR over time for real: subscriptions written by Stripe's webhooks (signed
// with the stack's test secret, as Stripe signs them), read back through the gateway's
// /api/admin/stats (account's GetStats → billing's GetRevenue).
import { randomUUID } from "node:crypto";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import type { PlanKey } from "@crafter/plans";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import Stripe from "stripe";

jest.setTimeout(90_000);

const secret = stackEnv().STRIPE_WEBHOOK_SECRET ?? "whsec_crafter_local";
const signer = new Stripe("sk_test_signer");
const seconds = () => Math.floor(Date.now() / 1000);

async function deliver(event: object): Promise<number> {
  const payload = JSON.stringify(event);
  const response = await fetch(`${gatewayUrl()}/api/billing/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
  });
  await response.arrayBuffer();
  return response.status;
}

/** A customer.subscription.* event for `userId` on `planKey` (Stripe's shape, as payments.int.test.ts). */
function subscriptionEvent(
  type: string,
  userId: string,
  tag: string,
  planKey: PlanKey,
  status = "active",
  created = seconds(),
) {
  return {
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    type,
    created,
    livemode: false,
    data: {
      object: {
        id: `sub_${tag}`,
        object: "subscription",
        customer: `cus_${tag}`,
        status,
        cancel_at_period_end: false,
        metadata: { userId, planKey },
        items: {
          object: "list",
          data: [
            {
              id: `si_${tag}`,
              object: "subscription_item",
              current_period_start: seconds(),
              current_period_end: seconds() + 30 * 86_400,
              price: { id: `price_${planKey}`, object: "price", lookup_key: planKey, currency: "usd" },
            },
          ],
        },
      },
    },
  };
}

let admin: GatewaySession;

/** Today's MRR in cents as Admin's usage chart shows it (the last day of the series). */
async function mrrToday(): Promise<number> {
  const stats = await admin.get("/api/admin/stats?days=7");
  expect(stats.status).toBe(200);
  const days = stats.body.result.days as { day: string; mrrCents: number }[];
  expect(days.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
  return days.at(-1)!.mrrCents;
}

async function subscriber(prefix: string): Promise<{ userId: string; tag: string }> {
  const { session } = await verifiedSession(prefix);
  const userId = (await session.get("/auth/check")).body.result.user.userId as string;
  return { userId, tag: randomUUID().replaceAll("-", "").slice(0, 14) };
}

beforeAll(async () => {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  admin = new GatewaySession();
  await admin.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

describe("MRR in Admin", () => {
  it("adds a monthly plan's price and a yearly plan's charge / 12, once per event, and drops a cancelled one", async () => {
    const [monthly, yearly] = await Promise.all([subscriber("mrr-monthly"), subscriber("mrr-yearly")]);
    const before = await mrrToday();

    const created = subscriptionEvent("customer.subscription.created", monthly.userId, monthly.tag, "CoreMonthly_v1");
    expect(await deliver(created)).toBe(200);
    expect(await deliver(created)).toBe(200); // Stripe redelivers: nothing counts twice
    expect(
      await deliver(subscriptionEvent("customer.subscription.created", yearly.userId, yearly.tag, "ProYearly")),
    ).toBe(200);
    expect((await mrrToday()) - before).toBe(2900 + 4917);

    // The monthly one ends (a later event): only the yearly one still counts.
    const ended = subscriptionEvent(
      "customer.subscription.deleted",
      monthly.userId,
      monthly.tag,
      "CoreMonthly_v1",
      "canceled",
      seconds() + 1,
    );
    expect(await deliver(ended)).toBe(200);
    expect((await mrrToday()) - before).toBe(4917);
  });

  it("is for admins only", async () => {
    const { session } = await verifiedSession("mrr-not-admin");
    expect((await session.get("/api/admin/stats?days=7")).status).toBe(403);
  });
});
