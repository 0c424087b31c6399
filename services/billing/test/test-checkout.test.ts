import { creditPack } from "@crafter/plans";
import { describe, expect, it } from "@jest/globals";
import { subscriptionState, webhookEffect } from "../src/domain/stripe-webhook";
import {
  addMonths,
  type CheckoutRecord,
  checkoutState,
  packPurchase,
  paidCheckoutEvents,
  planPurchase,
  successUrlOf,
} from "../src/domain/test-checkout";

const createdAt = new Date("2026-03-30T10:00:00Z");
const paidAt = new Date("2026-03-31T09:30:00Z");

function record(over: Partial<CheckoutRecord>): CheckoutRecord {
  return {
    _id: "ck_abcdefghijklmnopqrstuvwxyz012345",
    userId: "u1",
    projectId: "p1",
    kind: "subscription",
    planKey: "CoreMonthly_v1",
    packId: "",
    ...planPurchase("CoreMonthly_v1"),
    priceId: "price_core",
    // What stripe-mock may answer for every checkout.
    stripeSessionId: "cs_test_fixture",
    successUrl: "https://app.example/app/settings/subscription?checkout=success&session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://app.example/app/settings/subscription?checkout=cancelled",
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 86_400_000),
    ...over,
  };
}

// stripe-mock's fixtures: the same ids whatever was asked.
const fixtures = {
  session: { id: "cs_test_fixture", object: "checkout.session", url: "https://checkout.stripe.com/x" },
  customerId: "cus_existing",
  invoice: { id: "in_fixture", object: "invoice", status: "draft", amount_paid: 0 },
  subscription: { id: "sub_fixture", object: "subscription", status: "incomplete", items: { data: [] } },
  paymentIntent: { id: "pi_fixture", object: "payment_intent", status: "requires_payment_method" },
};

const objectOf = (event: { data: { object: Record<string, unknown> } }) => event.data.object;

describe("what a checkout sells", () => {
  it("prices plans per month or per year (12 × the yearly card price) and packs once", () => {
    expect(planPurchase("CoreMonthly_v1")).toMatchObject({ name: "Crafter Core", amount: 2900, interval: "month" });
    expect(planPurchase("ProYearly")).toMatchObject({ name: "Crafter Pro", amount: 59004, interval: "year" });
    expect(packPurchase(creditPack("pack_1500")!)).toMatchObject({ amount: 2500, interval: "", credits: 1500 });
  });

  it("is open until paid or until it expires", () => {
    const r = record({});
    expect(checkoutState(r, false, paidAt)).toBe("open");
    expect(checkoutState(r, true, paidAt)).toBe("complete");
    expect(checkoutState(r, false, r.expiresAt)).toBe("expired");
    expect(checkoutState(r, true, new Date(r.expiresAt.getTime() + 1))).toBe("complete");
  });

  it("fills in the session id of the success URL as Stripe does", () => {
    expect(successUrlOf(record({}))).toBe(
      "https://app.example/app/settings/subscription?checkout=success&session_id=cs_test_fixture",
    );
  });
});

describe("the events Stripe sends for a paid checkout", () => {
  it("a subscription: subscription created, invoice paid, checkout completed, which the handler reads as Core", () => {
    const events = paidCheckoutEvents(record({}), fixtures, paidAt, "2026-10-28.endive");
    expect(events.map((e) => e.type)).toEqual([
      "customer.subscription.created",
      "invoice.paid",
      "checkout.session.completed",
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    const [created, invoice, completed] = events.map((e) => webhookEffect(e));
    const subId = "sub_abcdefghijklmnopqrstuvwxyz012345";
    expect(created).toEqual({
      kind: "subscription",
      ended: false,
      state: {
        userId: "u1",
        customerId: "cus_existing",
        subscriptionId: subId,
        planKey: "CoreMonthly_v1",
        status: "active",
        currentPeriodEnd: new Date("2026-04-30T09:30:00Z"),
        cancelAtPeriodEnd: false,
      },
    });
    expect(invoice).toMatchObject({
      kind: "invoice",
      paid: true,
      invoice: { userId: "u1", amountPaid: 2900, status: "paid", description: "Crafter Core", currency: "usd" },
    });
    expect(completed).toEqual({
      kind: "subscribed",
      userId: "u1",
      customerId: "cus_existing",
      subscriptionId: subId,
      planKey: "CoreMonthly_v1",
    });
    expect(objectOf(events[2]!).metadata).toEqual({
      userId: "u1",
      checkoutId: "ck_abcdefghijklmnopqrstuvwxyz012345",
      projectId: "p1",
      planKey: "CoreMonthly_v1",
    });
  });

  it("a period ends on the same day a month on, or on the month's last day", () => {
    expect(addMonths(new Date("2026-01-31T08:00:00Z"), 1)).toEqual(new Date("2026-02-28T08:00:00Z"));
    expect(addMonths(new Date("2028-01-31T08:00:00Z"), 1)).toEqual(new Date("2028-02-29T08:00:00Z"));
    expect(addMonths(new Date("2026-12-15T08:00:00Z"), 1)).toEqual(new Date("2027-01-15T08:00:00Z"));
    expect(addMonths(new Date("2028-02-29T08:00:00Z"), 12)).toEqual(new Date("2029-02-28T08:00:00Z"));
  });

  it("a yearly plan's period is a year", () => {
    const events = paidCheckoutEvents(
      record({ planKey: "ProYearly", ...planPurchase("ProYearly") }),
      fixtures,
      paidAt,
      "v",
    );
    expect(subscriptionState(objectOf(events[0]!)).currentPeriodEnd).toEqual(new Date("2027-03-31T09:30:00Z"));
  });

  it("two packs on the same fixture session id are two grants and two invoices", () => {
    const pack = (id: string, packId: string) =>
      paidCheckoutEvents(
        record({ _id: id, kind: "credits", planKey: "", packId, ...packPurchase(creditPack(packId)!) }),
        fixtures,
        paidAt,
        "v",
      );
    const one = pack("ck_1111111111111111111111", "pack_500");
    const two = pack("ck_2222222222222222222222", "pack_5000");
    expect(one.map((e) => e.type)).toEqual(["payment_intent.succeeded", "invoice.paid", "checkout.session.completed"]);
    const grants = [one, two].map((events) => webhookEffect(events[2]!));
    expect(grants).toEqual([
      expect.objectContaining({
        kind: "pack",
        sessionId: "cs_test_fixture",
        checkoutId: "ck_1111111111111111111111",
        credits: 500,
      }),
      expect.objectContaining({
        kind: "pack",
        sessionId: "cs_test_fixture",
        checkoutId: "ck_2222222222222222222222",
        credits: 5000,
      }),
    ]);
    const invoices = [one, two].map((events) => webhookEffect(events[1]!));
    expect(invoices.map((i) => (i.kind === "invoice" ? [i.invoice.id, i.invoice.amountPaid] : null))).toEqual([
      ["in_1111111111111111111111", 1000],
      ["in_2222222222222222222222", 7000],
    ]);
    expect(objectOf(one[0]!)).toMatchObject({ status: "succeeded", amount: 1000, customer: "cus_existing" });
    // Paying again makes the same events (the handler ignores repeats by event id).
    expect(pack("ck_1111111111111111111111", "pack_500").map((e) => e.id)).toEqual(one.map((e) => e.id));
  });
});
