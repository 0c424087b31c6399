import { describe, expect, it } from "@jest/globals";
import {
  changeDirection,
  grantMonth,
  planKeyOf,
  subscriptionState,
  tierOfState,
  webhookEffect,
} from "../src/domain/stripe-webhook";

const ev = (type: string, object: object) => ({ id: "evt_1", type, created: 1_700_000_000, data: { object } });

describe("what a Stripe event means", () => {
  it("a completed subscription Checkout names the user and the plan key", () => {
    const effect = webhookEffect(
      ev("checkout.session.completed", {
        mode: "subscription",
        client_reference_id: "u1",
        customer: "cus_1",
        subscription: { id: "sub_1" },
        metadata: { planKey: "ProYearly" },
      }),
    );
    expect(effect).toEqual({
      kind: "subscribed",
      userId: "u1",
      customerId: "cus_1",
      subscriptionId: "sub_1",
      planKey: "ProYearly",
    });
  });

  it("a pack Checkout grants only when paid and for a known pack", () => {
    const session = {
      id: "cs_1",
      mode: "payment",
      client_reference_id: "u1",
      customer: "cus_1",
      metadata: { packId: "pack_500" },
    };
    expect(webhookEffect(ev("checkout.session.completed", { ...session, payment_status: "paid" }))).toMatchObject({
      kind: "pack",
      credits: 500,
      sessionId: "cs_1",
      checkoutId: "",
    });
    // Crafter's own checkout id (metadata) names the purchase when present: a Stripe test API
    // answers every checkout with the same session id.
    expect(
      webhookEffect(
        ev("checkout.session.completed", {
          ...session,
          payment_status: "paid",
          metadata: { packId: "pack_500", checkoutId: "ck_abc" },
        }),
      ),
    ).toMatchObject({ kind: "pack", sessionId: "cs_1", checkoutId: "ck_abc" });
    expect(webhookEffect(ev("checkout.session.completed", { ...session, payment_status: "unpaid" })).kind).toBe(
      "ignored",
    );
    expect(
      webhookEffect(ev("checkout.session.completed", { ...session, payment_status: "paid", metadata: { packId: "x" } }))
        .kind,
    ).toBe("ignored");
  });

  it("reads the plan from the price's lookup key, else the metadata; the period from the item or the subscription", () => {
    const withItem = {
      id: "sub_1",
      status: "active",
      customer: "cus_1",
      metadata: { userId: "u1", planKey: "CoreMonthly_v1" },
      items: { data: [{ price: { lookup_key: "ProMonthly" }, current_period_end: 1_800_000_000 }] },
    };
    expect(planKeyOf(withItem)).toBe("ProMonthly");
    expect(subscriptionState(withItem)).toMatchObject({
      userId: "u1",
      planKey: "ProMonthly",
      currentPeriodEnd: new Date(1_800_000_000_000),
    });
    const old = {
      id: "sub_1",
      status: "active",
      metadata: { planKey: "CoreYearly_v1" },
      current_period_end: 1_800_000_000,
    };
    expect(subscriptionState(old)).toMatchObject({
      planKey: "CoreYearly_v1",
      currentPeriodEnd: new Date(1_800_000_000_000),
    });
    expect(planKeyOf({ metadata: { planKey: "Gold" } })).toBeNull();
  });

  it("a deleted subscription is canceled; only live statuses give a paid tier", () => {
    const effect = webhookEffect(ev("customer.subscription.deleted", { id: "sub_1", status: "active" }));
    expect(effect).toMatchObject({ kind: "subscription", ended: true, state: { status: "canceled" } });
    expect(tierOfState({ planKey: "ProMonthly", status: "past_due" })).toBe("pro");
    expect(tierOfState({ planKey: "ProMonthly", status: "incomplete_expired" })).toBe("free");
    expect(tierOfState({ planKey: null, status: "active" })).toBe("free");
  });

  it("invoices keep amounts in cents and find the user in the subscription's metadata", () => {
    const effect = webhookEffect(
      ev("invoice.paid", {
        id: "in_1",
        customer: "cus_1",
        amount_paid: 2900,
        status: "paid",
        parent: { subscription_details: { metadata: { userId: "u1" } } },
      }),
    );
    expect(effect).toMatchObject({
      kind: "invoice",
      paid: true,
      invoice: { userId: "u1", amountPaid: 2900, currency: "usd" },
    });
  });

  it("ignores events it does not act on", () => {
    expect(webhookEffect(ev("charge.refunded", {})).kind).toBe("ignored");
  });
});

describe("plan changes and monthly grants", () => {
  it("orders plans by tier then yearly commitment", () => {
    expect(changeDirection("CoreMonthly_v1", "ProMonthly")).toBe("upgrade");
    expect(changeDirection("ProMonthly", "CoreYearly_v1")).toBe("downgrade");
    expect(changeDirection("CoreMonthly_v1", "CoreYearly_v1")).toBe("upgrade");
    expect(changeDirection("ProYearly", "ProYearly")).toBe("same");
  });

  it("grants per calendar month (UTC), expiring at the next month's start", () => {
    expect(grantMonth(new Date("2026-12-31T23:59:59Z"))).toEqual({
      month: "2026-12",
      expiresAt: new Date("2027-01-01T00:00:00Z"),
    });
  });
});
