import { describe, expect, it } from "@jest/globals";
import {
  consentSource,
  customerContactId,
  customerValues,
  mergeTags,
  nextConsent,
  type ShopifyCustomer,
  shopifyConsent,
} from "../src/domain/shopify-customers";

const customer = (over: Partial<ShopifyCustomer> = {}): ShopifyCustomer => ({
  id: "gid://shopify/Customer/7001",
  firstName: " Ada ",
  lastName: "Lovelace",
  email: " Ada@Example.COM ",
  phone: "+44 20 7946 0000",
  tags: ["VIP", "vip", " wholesale ", "x".repeat(51)],
  numberOfOrders: "12",
  createdAt: "2024-03-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
  amountSpent: { amount: "1250.505", currencyCode: "GBP" },
  emailMarketingConsent: {
    marketingState: "SUBSCRIBED",
    marketingOptInLevel: "CONFIRMED_OPT_IN",
    consentUpdatedAt: "2025-05-01T09:00:00Z",
  },
  ...over,
});

const at = (iso: string) => new Date(iso);
const now = at("2026-11-28T08:00:00Z");

describe("a customer's fields", () => {
  it("become a contact's: email normalised, tags cleaned, orders and total spent as numbers", () => {
    expect(customerValues(customer())).toEqual({
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+44 20 7946 0000",
      tags: ["VIP", "wholesale"],
      orderCount: 12,
      totalSpent: 1250.51,
      currency: "GBP",
      customerSince: at("2024-03-01T10:00:00Z"),
    });
  });

  it("are no contact without a usable email", () => {
    expect(customerValues(customer({ email: null }))).toBeNull();
    expect(customerValues(customer({ email: "not an email" }))).toBeNull();
  });

  it("read nonsense money and counts as nothing rather than NaN", () => {
    const values = customerValues(customer({ numberOfOrders: "-1", amountSpent: null }))!;
    expect(values.orderCount).toBe(0);
    expect(values.totalSpent).toBe(0);
    expect(values.currency).toBe("");
  });
});

describe("Shopify's email marketing consent", () => {
  const state = (marketingState: NonNullable<ShopifyCustomer["emailMarketingConsent"]>["marketingState"]) =>
    shopifyConsent({
      emailMarketingConsent: { marketingState, marketingOptInLevel: "SINGLE_OPT_IN", consentUpdatedAt: null },
    }).status;

  it("subscribes only SUBSCRIBED; PENDING is pending; every other state is not subscribed", () => {
    expect(state("SUBSCRIBED")).toBe("subscribed");
    expect(state("PENDING")).toBe("pending");
    for (const other of ["NOT_SUBSCRIBED", "UNSUBSCRIBED", "REDACTED", "INVALID"] as const)
      expect(state(other)).toBe("unsubscribed");
    expect(shopifyConsent({ emailMarketingConsent: null }).status).toBe("unsubscribed");
  });

  it("keeps its date and opt-in level as evidence", () => {
    const consent = shopifyConsent(customer());
    expect(consent.at).toEqual(at("2025-05-01T09:00:00Z"));
    expect(consentSource(consent)).toBe("Shopify: subscribed, confirmed opt-in");
    expect(consentSource(shopifyConsent(customer({ emailMarketingConsent: null })))).toBe("Shopify: not subscribed");
  });
});

describe("the consent a contact gets", () => {
  const subscribed = shopifyConsent(customer());
  const unsubscribedAt = (iso: string | null) =>
    shopifyConsent(
      customer({
        emailMarketingConsent: { marketingState: "UNSUBSCRIBED", marketingOptInLevel: null, consentUpdatedAt: iso },
      }),
    );

  it("a new contact takes Shopify's, dated now when Shopify has no date", () => {
    expect(nextConsent(null, undefined, subscribed, now)).toEqual({
      status: "subscribed",
      at: at("2025-05-01T09:00:00Z"),
    });
    expect(nextConsent(null, undefined, unsubscribedAt(null), now)).toEqual({ status: "unsubscribed", at: now });
  });

  it("an unsubscribe in Crafter stands against an older SUBSCRIBED, not a newer one", () => {
    const current = { status: "unsubscribed" as const, at: at("2026-01-01T00:00:00Z") };
    expect(nextConsent(current, undefined, subscribed, now)).toBeNull();
    const later = { ...subscribed, at: at("2026-06-01T00:00:00Z") };
    expect(nextConsent(current, undefined, later, now)).toEqual({ status: "subscribed", at: later.at });
  });

  it("a SUBSCRIBED without a date never overrides Crafter's unsubscribe", () => {
    const current = { status: "unsubscribed" as const, at: at("2020-01-01T00:00:00Z") };
    expect(nextConsent(current, undefined, { ...subscribed, at: null }, now)).toBeNull();
  });

  it("bounced and complained stay whatever Shopify says", () => {
    for (const status of ["bounced", "complained"] as const)
      expect(nextConsent({ status, at: at("2020-01-01T00:00:00Z") }, undefined, subscribed, now)).toBeNull();
  });

  it("a pending contact, or one whose consent Shopify set, follows Shopify", () => {
    expect(nextConsent({ status: "pending", at: now }, undefined, subscribed, now)?.status).toBe("subscribed");
    const fromShopify = at("2025-05-01T09:00:00Z");
    expect(nextConsent({ status: "subscribed", at: fromShopify }, fromShopify, unsubscribedAt(null), now)?.status).toBe(
      "unsubscribed",
    );
  });

  it("Crafter's own confirmed opt-in stands against an undated NOT_SUBSCRIBED", () => {
    const notSubscribed = shopifyConsent(customer({ emailMarketingConsent: null }));
    expect(nextConsent({ status: "subscribed", at: at("2026-01-01T00:00:00Z") }, undefined, notSubscribed, now)).toBe(
      null,
    );
  });
});

describe("tags after a sync", () => {
  it("keep the contact's own and replace the store's last ones", () => {
    expect(mergeTags(["newsletter", "VIP", "old"], ["vip", "old"], ["VIP", "wholesale"])).toEqual([
      "newsletter",
      "VIP",
      "wholesale",
    ]);
  });
});

describe("the contact id of a customer", () => {
  it("is one UUID per project and customer", () => {
    const id = customerContactId("p1", "gid://shopify/Customer/1");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(customerContactId("p1", "gid://shopify/Customer/1")).toBe(id);
    expect(customerContactId("p2", "gid://shopify/Customer/1")).not.toBe(id);
  });
});
