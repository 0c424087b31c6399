import { createHmac } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import {
  normaliseShopDomain,
  type ProviderHttp,
  ShopifyApiError,
  shopifyGraphql,
  throttleWaitMs,
  verifyShopifyQuery,
  verifyShopifyWebhook,
} from "../src";

describe("shop domains", () => {
  it("accepts what an owner types and normalises it to the myshopify domain", () => {
    expect(normaliseShopDomain("their-store.myshopify.com")).toBe("their-store.myshopify.com");
    expect(normaliseShopDomain(" https://Their-Store.myshopify.com/admin ")).toBe("their-store.myshopify.com");
    expect(normaliseShopDomain("bikes.myshopify.crafter.test", "myshopify.crafter.test")).toBe(
      "bikes.myshopify.crafter.test",
    );
  });

  it("refuses anything that is not one label under the suffix", () => {
    for (const bad of [
      "their-store.com",
      "evil.com/.myshopify.com",
      "a.b.myshopify.com",
      "-store.myshopify.com",
      "store.myshopify.com.evil.com",
      "store.myshopify.com@evil.com",
      "",
      "x".repeat(300),
    ])
      expect(normaliseShopDomain(bad)).toBeNull();
    expect(normaliseShopDomain("bikes.myshopify.crafter.test")).toBeNull();
  });
});

describe("signatures", () => {
  it("verifies the callback's hmac over its sorted query (Shopify's documented example)", () => {
    const query = new URLSearchParams(
      "code=0907a61c0c8d55e99db179b68161bc00&hmac=4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20&shop=some-shop.myshopify.com&timestamp=1337178173",
    );
    expect(verifyShopifyQuery(query, "hush")).toBe(true);
    expect(verifyShopifyQuery(query, "other")).toBe(false);
    query.set("shop", "other-shop.myshopify.com");
    expect(verifyShopifyQuery(query, "hush")).toBe(false);
    expect(verifyShopifyQuery(new URLSearchParams("shop=x.myshopify.com"), "hush")).toBe(false);
  });

  it("verifies a webhook's base64 HMAC of the raw body", () => {
    const body = '{"id":1,"title":"Bike"}';
    const header = createHmac("sha256", "secret").update(body).digest("base64");
    expect(verifyShopifyWebhook(body, header, "secret")).toBe(true);
    expect(verifyShopifyWebhook(`${body} `, header, "secret")).toBe(false);
    expect(verifyShopifyWebhook(body, "", "secret")).toBe(false);
  });
});

describe("GraphQL calls", () => {
  const cost = (available: number) => ({
    requestedQueryCost: 100,
    actualQueryCost: null,
    throttleStatus: { maximumAvailable: 1000, currentlyAvailable: available, restoreRate: 50 },
  });

  it("waits for the bucket to hold the query's cost", () => {
    expect(throttleWaitMs(cost(0))).toBe(2000);
    expect(throttleWaitMs(cost(90))).toBe(250);
  });

  it("retries a THROTTLED answer after the wait, and reports other errors", async () => {
    const answers = [
      { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }], extensions: { cost: cost(0) } },
      { data: { shop: { name: "Bikes" } }, extensions: { cost: cost(900) } },
    ];
    const sent: unknown[] = [];
    const http: ProviderHttp = {
      async call(url, init) {
        sent.push({ url, token: init.headers?.["x-shopify-access-token"] });
        return { status: 200, json: answers.shift(), headers: new Headers() };
      },
    };
    const waits: number[] = [];
    const result = await shopifyGraphql<{ shop: { name: string } }>(
      http,
      { adminOrigin: "https://{shop}", shop: "bikes.myshopify.com" },
      "shpat_1",
      "{ shop { name } }",
      {},
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(result.data.shop.name).toBe("Bikes");
    expect(waits).toEqual([2000]);
    expect(sent[0]).toEqual({ url: "https://bikes.myshopify.com/admin/api/2025-01/graphql.json", token: "shpat_1" });

    const refused: ProviderHttp = {
      call: async () => ({
        status: 401,
        json: { errors: "[API] Invalid API key or access token" },
        headers: new Headers(),
      }),
    };
    await expect(
      shopifyGraphql(refused, { adminOrigin: "https://{shop}", shop: "bikes.myshopify.com" }, "x", "{ shop { name } }"),
    ).rejects.toBeInstanceOf(ShopifyApiError);
  });
});
