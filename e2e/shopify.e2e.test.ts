/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { GatewaySession, linkFrom, stackEnv, waitForEmail } from "@crafter/kit/testing";
import { type FakeCustomer, LocalShopifyServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { atBothWidths, browserStep, launchChromium, signedInContext } from "./support";

// A new user's Shopify store in Chromium: install it from Settings › Integrations by its domain
// (checked as it is typed) through the local Shopify's consent, see the store's products as
// offerings (their image copied into the media library) and its customers as contacts with the
// consent Shopify recorded, and a product changed in the store (a signed products/update webhook)
// shown changed within seconds.
jest.setTimeout(120_000);

const env = stackEnv();
const suffix = env.SHOPIFY_SHOP_SUFFIX ?? "myshopify.crafter.test";
const storePort = Number(/:(\d+)$/.exec(env.SHOPIFY_ADMIN_ORIGIN ?? "")?.[1] ?? 28049);
const store = new LocalShopifyServer({
  clientId: env.SHOPIFY_CLIENT_ID ?? "",
  clientSecret: env.SHOPIFY_CLIENT_SECRET ?? "",
  suffix,
});

let browser: Browser;
let context: BrowserContext;
let page: Page;
let shop: string;
let gravelId: number;
const it = browserStep("shopify", () => page);

async function adminSession(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

const customer = (
  firstName: string,
  marketingState: NonNullable<FakeCustomer["emailMarketingConsent"]>["marketingState"],
): Omit<FakeCustomer, "id"> => ({
  firstName,
  lastName: "Rider",
  email: `${firstName.toLowerCase()}@riders.example`,
  phone: null,
  tags: marketingState === "SUBSCRIBED" ? ["VIP"] : [],
  numberOfOrders: marketingState === "SUBSCRIBED" ? 7 : 1,
  amountSpent: { amount: marketingState === "SUBSCRIBED" ? "980.00" : "35.00", currencyCode: "USD" },
  emailMarketingConsent: {
    marketingState,
    marketingOptInLevel: marketingState === "SUBSCRIBED" ? "CONFIRMED_OPT_IN" : null,
    consentUpdatedAt: "2026-06-01T09:00:00Z",
  },
});

beforeAll(async () => {
  await store.start(storePort);
  shop = store.addShop(`town-bikes-${randomUUID().slice(0, 6)}`, "Town Bikes");
  gravelId = store.seedProduct(shop, {
    title: "Gravel Explorer",
    handle: "gravel-explorer",
    descriptionHtml: "<p>A gravel bike for long days.</p>",
    tags: ["gravel", "carbon"],
    images: [{ id: 1, url: `http://${shop}:${storePort}/cdn/shop/files/gravel.png`, altText: "Gravel Explorer" }],
  }).id;
  store.seedProduct(shop, {
    title: "City Commuter",
    handle: "city-commuter",
    descriptionHtml: "<p>Fenders, lights and a rack.</p>",
    tags: ["city"],
    images: [{ id: 2, url: `http://${shop}:${storePort}/cdn/shop/files/commuter.png`, altText: "City Commuter" }],
  });
  store.seedCustomer(shop, customer("Ada", "SUBSCRIBED"));
  store.seedCustomer(shop, customer("Cara", "PENDING"));
  store.seedCustomer(shop, customer("Ben", "NOT_SUBSCRIBED"));
  store.seedCustomer(shop, customer("Dan", "UNSUBSCRIBED"));
  // The store's host names are the local Shopify's (the consent screen and its files).
  browser = await launchChromium([`--host-resolver-rules=MAP *.${suffix} 127.0.0.1`]);
  let session: GatewaySession;
  ({ context, page, session } = await signedInContext(browser, "shopify-e2e", {
    viewport: { width: 1366, height: 850 },
  }));
  expect(
    (await session.post("/api/projects/createProject", { name: "Town Bikes", description: "Bikes for the town" }))
      .status,
  ).toBe(201);
  const userId = (await session.get("/auth/check")).body.result.user.userId;
  const admin = await adminSession();
  for (const flag of ["shopify_integration", "customer_view"])
    expect((await admin.put(`/api/admin/users/${userId}/flags`, { flag, enabled: true })).status).toBe(200);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await store.stop();
});

describe("Shopify store", () => {
  it("installs from the store's domain, checked as it is typed, and imports both parts", async () => {
    await page.goto("/app/settings/integrations");
    const field = page.getByTestId("shopify-shop");
    await field.fill("town-bikes.com");
    const error = page.locator("#shopify-shop-error", { hasText: `like your-store.${suffix}` });
    await error.waitFor();
    // Said in the form's error colour, under the field.
    const [red, green] = await error.evaluate((node) =>
      getComputedStyle(node).color.match(/\d+/g)!.slice(0, 2).map(Number),
    );
    expect(red).toBeGreaterThan(200);
    expect(green).toBeLessThan(120);
    await field.fill(`https://${shop}/admin`);
    await page.locator("#shopify-shop-error").waitFor({ state: "detached" });
    await atBothWidths(page, "shopify-install");
    await page.getByTestId("shopify-install").click();
    await page.waitForURL("**/app/settings/integrations?connected=shopify");
    await page.getByTestId("integration-return").waitFor();
    for (const part of ["products", "customers"])
      await page.locator(`[data-testid="shopify-sync-${part}"][data-state="done"]`).waitFor({ timeout: 45_000 });
    expect(await page.getByTestId("shopify-sync-products").textContent()).toContain("2 offerings");
    expect(await page.getByTestId("shopify-sync-customers").textContent()).toContain("4 contacts");
    expect(await page.getByTestId("shopify-details").textContent()).toContain(shop);
    await atBothWidths(page, "shopify-connected");
    // Sync now: each part shows importing until its import reports, then its count again.
    const queries = store.seen.queries;
    await page.getByTestId("shopify-sync").click();
    await page.locator('[data-testid="shopify-sync"]', { hasText: "Importing…" }).waitFor();
    await page.locator('[data-testid="shopify-sync"]', { hasText: "Sync now" }).waitFor({ timeout: 30_000 });
    expect(store.seen.queries).toBeGreaterThan(queries);
    expect(await page.getByTestId("shopify-sync-customers").textContent()).toContain("4 contacts");
  });

  it("shows the store's products as offerings, with their images copied", async () => {
    await page.goto("/app/offerings/product");
    const gravel = page.locator('[data-testid="product-card"][data-source="shopify"]', { hasText: "Gravel Explorer" });
    await gravel.waitFor();
    expect(await page.locator('[data-testid="product-card"][data-source="shopify"]').count()).toBe(2);
    const cover = gravel.getByTestId("profile-cover");
    expect(await cover.getAttribute("src")).toMatch(/^\/media\/public\/[A-Za-z0-9_-]{22}$/);
    expect(await cover.evaluate((img) => [getComputedStyle(img).objectFit, getComputedStyle(img).height])).toEqual([
      "cover",
      "140px",
    ]);
    const width = await cover.evaluate((img: HTMLImageElement) =>
      img.complete
        ? img.naturalWidth
        : new Promise<number>((resolve) => img.addEventListener("load", () => resolve(img.naturalWidth))),
    );
    expect(width).toBeGreaterThan(0);
    expect(store.seen.files.sort()).toEqual(["/cdn/shop/files/commuter.png", "/cdn/shop/files/gravel.png"]);
    await atBothWidths(page, "shopify-offerings");
  });

  it("shows the store's customers as contacts with the consent Shopify recorded", async () => {
    // The list filtered by consent, read once it shows `count` contacts (it loads after the page).
    const names = async (consent: string, count: number) => {
      await page.goto(`/app/contacts?consent=${consent}`);
      await page.getByTestId("contacts-table").waitFor();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="contact-link"]').length === n, count);
      return (await page.getByTestId("contact-link").allTextContents()).sort();
    };
    expect(await names("subscribed", 1)).toEqual(["Ada Rider"]);
    expect(await names("pending", 1)).toEqual(["Cara Rider"]);
    expect(await names("unsubscribed", 2)).toEqual(["Ben Rider", "Dan Rider"]);
    await page.goto("/app/contacts");
    const ada = page.locator('[data-testid="contact-link"]', { hasText: "Ada Rider" });
    await ada.waitFor();
    await atBothWidths(page, "shopify-contacts");
    // The store's order count and total spent on the contact.
    await ada.click();
    const details = page.locator(".ant-descriptions");
    await details.getByText("$980.00").waitFor();
    expect(await details.textContent()).toContain("Orders7");
    await atBothWidths(page, "shopify-contact");
  });

  it("shows a product changed in the store within seconds", async () => {
    await page.goto("/app/offerings/product");
    await page.locator('[data-testid="product-card"]', { hasText: "Gravel Explorer" }).waitFor();
    const changedAt = Date.now();
    await store.saveProduct(shop, {
      id: gravelId,
      title: "Gravel Explorer 2",
      handle: "gravel-explorer",
      descriptionHtml: "<p>Lighter, with a carbon fork.</p>",
      tags: ["gravel", "new"],
      images: [{ id: 1, url: `http://${shop}:${storePort}/cdn/shop/files/gravel.png`, altText: "Gravel Explorer" }],
    });
    expect(store.seen.webhooks.at(-1)).toMatchObject({ topic: "products/update", status: 200 });
    await page.locator('[data-testid="product-card"]', { hasText: "Gravel Explorer 2" }).waitFor({ timeout: 20_000 });
    const seconds = (Date.now() - changedAt) / 1000;
    console.log(`products/update shown in the browser ${seconds.toFixed(1)} s after the store changed`);
    expect(
      await page.locator('[data-testid="product-card"]', { hasText: "Lighter, with a carbon fork." }).count(),
    ).toBe(1);
    // The same image: not copied again.
    expect(store.seen.files.filter((file) => file.endsWith("gravel.png"))).toHaveLength(1);
  });
});
