import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { LocalShopifyServer, type WebhookDelivery } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

// The Shopify store through the gateway, against the tests' local Shopify (SHOPIFY_ADMIN_ORIGIN):
// install from the shop's domain with the callback's hmac checked, products imported as offerings
// (cursor pages, a THROTTLED answer waited out), a product changed in the store changed here by its
// webhook, customers imported as contacts with their consent mapped (never subscribed unless the
// store says so; an unsubscribe in Crafter kept), orders and total spent usable by segments, a
// customer's webhooks (update, delete, redact), webhooks verified and recorded once, uninstall.
jest.setTimeout(60_000);

const env = stackEnv();
const store = new LocalShopifyServer({
  clientId: env.SHOPIFY_CLIENT_ID ?? "",
  clientSecret: env.SHOPIFY_CLIENT_SECRET ?? "",
  suffix: env.SHOPIFY_SHOP_SUFFIX ?? "myshopify.crafter.test",
  // Room for one 50-product page (1,202 points) at a time: the second page is throttled.
  bucket: { maximumAvailable: 1300, restoreRate: 250 },
});
const storePort = Number(/:(\d+)$/.exec(env.SHOPIFY_ADMIN_ORIGIN ?? "")?.[1] ?? 28049);
const origin = env.PUBLIC_ORIGIN ?? gatewayUrl();
const webhookUrl = `${gatewayUrl()}/api/integrations/shopify/webhooks`;

let owner: GatewaySession;
let projectId: string;
let shop: string;
let gravelId: number;
let gravelCopy: { path: string; assetId: string };
let adaId: number;
let franId: number;
let benId: number;
let franContactId: string;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

/** Shopify's consent screen, reached on the shop's own host (here the local store by its port). */
async function consent(authorizeUrl: string): Promise<URL> {
  const url = new URL(authorizeUrl);
  expect(url.hostname).toBe(shop);
  // The shop's host name is the browser's to resolve; here the request goes to 127.0.0.1 with that Host.
  const { status, location } = await new Promise<{ status: number; location: string }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: storePort, path: `${url.pathname}${url.search}`, headers: { host: url.host } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? "") });
      },
    );
    req.on("error", reject);
    req.end();
  });
  expect(status).toBe(302);
  return new URL(location);
}

/** The browser coming back to Crafter's callback. @returns where Crafter sends it. */
async function back(callback: URL): Promise<string> {
  expect(callback.toString().startsWith(`${origin}/api/integrations/shopify/callback?`)).toBe(true);
  const answer = await fetch(`${gatewayUrl()}${callback.pathname}${callback.search}`, { redirect: "manual" });
  expect(answer.status).toBe(302);
  return answer.headers.get("location")!;
}

async function start(domain: string) {
  return owner.post(`/api/integrations/shopify/connect?projectId=${projectId}`, { shop: domain });
}

async function shopifyRow() {
  const list = await owner.get(`/api/integrations?projectId=${projectId}`);
  expect(list.status).toBe(200);
  return (
    list.body.result as { provider: string; configured: boolean; kind: string; connection?: Record<string, unknown> }[]
  ).find((item) => item.provider === "shopify");
}

interface Offering {
  profileId: string;
  source: string;
  mediaAssetIds: string[];
  name: string;
  description: string;
  keywords: string[];
  fields: Record<string, unknown>;
}

async function offerings(): Promise<Offering[]> {
  const list = await owner.get(`/api/profiles?projectId=${projectId}&profileType=PRODUCT`);
  expect(list.status).toBe(200);
  return list.body.result.profiles as Offering[];
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until both parts of the store were imported after `since` (ms). */
async function syncedSince(since: number) {
  return eventually(shopifyRow, (row) => {
    const syncs = (row?.connection?.syncs ?? []) as { part: string; finishedAt: string }[];
    return ["products", "customers"].every((part) =>
      syncs.some((sync) => sync.part === part && Date.parse(sync.finishedAt) >= since),
    );
  });
}

async function patch(path: string, body: unknown) {
  return owner.request("PATCH", path, body);
}

interface ContactRow {
  id: string;
  email: string;
  firstName: string;
  tags: string[];
  consent: string;
  consentAt: string | null;
  source: string;
  orderCount: number | null;
  totalSpent: number | null;
  spentCurrency: string;
}

async function contacts(): Promise<ContactRow[]> {
  const list = await owner.get(`/api/contacts?projectId=${projectId}&pageSize=100`);
  expect(list.status).toBe(200);
  return list.body.result.result as ContactRow[];
}

const byEmail = (rows: ContactRow[], email: string) => rows.find((row) => row.email === email);

async function post(delivery: Pick<WebhookDelivery, "headers" | "body">): Promise<Response> {
  return fetch(webhookUrl, { method: "POST", headers: delivery.headers, body: delivery.body });
}

beforeAll(async () => {
  await store.start(storePort);
  shop = store.addShop(`bikes-${randomUUID().slice(0, 6)}`, "Town Bikes");
  gravelId = store.seedProduct(shop, {
    title: "Gravel Explorer",
    handle: "gravel-explorer",
    descriptionHtml: "<p>A <strong>gravel</strong> bike for long days.</p><ul><li>Carbon fork</li></ul>",
    tags: ["gravel", "carbon", "gravel"],
    seo: { title: "Gravel Explorer", description: "The gravel bike for long days out." },
    // Served by the local store, as Shopify's CDN serves a product's images.
    images: [{ id: 1, url: `http://${shop}:${storePort}/cdn/shop/files/gravel.png`, altText: "Gravel Explorer" }],
  }).id;
  store.seedProduct(shop, { title: "Prototype", handle: "prototype", descriptionHtml: "", tags: [], status: "DRAFT" });
  // The first products page finds the bucket nearly empty, whatever the machine's speed.
  store.throttleNext("products");
  for (let n = 1; n <= 59; n++)
    store.seedProduct(shop, {
      title: `Spare part ${n}`,
      handle: `spare-part-${n}`,
      descriptionHtml: "<p>Spare</p>",
      tags: ["parts"],
    });
  const [{ session }, admin] = await Promise.all([verifiedSession("shopify"), signUpAdmin()]);
  owner = session;
  const ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  expect(
    (await admin.put(`/api/admin/users/${ownerId}/flags`, { flag: "shopify_integration", enabled: true })).status,
  ).toBe(200);
  const created = await owner.post("/api/projects/createProject", {
    name: "Town Bikes",
    description: "Bikes for the town",
  });
  projectId = created.body.result.project.projectId;
  const customer = {
    phone: null,
    tags: [] as string[],
    numberOfOrders: 0,
    amountSpent: { amount: "0.00", currencyCode: "USD" },
    emailMarketingConsent: null,
  };
  const consent = (
    marketingState: "SUBSCRIBED" | "PENDING" | "NOT_SUBSCRIBED" | "UNSUBSCRIBED",
    consentUpdatedAt: string | null,
  ) => ({
    marketingState,
    marketingOptInLevel: marketingState === "SUBSCRIBED" ? ("CONFIRMED_OPT_IN" as const) : null,
    consentUpdatedAt,
  });
  adaId = store.seedCustomer(shop, {
    ...customer,
    firstName: "Ada",
    lastName: "Lovelace",
    email: "Ada@Example.com",
    tags: ["VIP", "wholesale"],
    numberOfOrders: 12,
    amountSpent: { amount: "1250.50", currencyCode: "USD" },
    emailMarketingConsent: consent("SUBSCRIBED", "2025-05-01T09:00:00Z"),
  }).id;
  benId = store.seedCustomer(shop, {
    ...customer,
    firstName: "Ben",
    lastName: "Never",
    email: "ben@example.com",
    numberOfOrders: 1,
    emailMarketingConsent: consent("NOT_SUBSCRIBED", null),
  }).id;
  store.seedCustomer(shop, {
    ...customer,
    firstName: "Cara",
    lastName: "Waiting",
    email: "cara@example.com",
    emailMarketingConsent: consent("PENDING", "2026-11-01T09:00:00Z"),
  });
  store.seedCustomer(shop, {
    ...customer,
    firstName: "Dan",
    lastName: "Gone",
    email: "dan@example.com",
    emailMarketingConsent: consent("UNSUBSCRIBED", "2026-10-01T09:00:00Z"),
  });
  store.seedCustomer(shop, { ...customer, firstName: "Eve", lastName: "Phone", email: null, phone: "+15550100" });
  franId = store.seedCustomer(shop, {
    ...customer,
    firstName: "Fran",
    lastName: "Shop",
    email: "fran@example.com",
    tags: ["returning"],
    numberOfOrders: 3,
    amountSpent: { amount: "80.00", currencyCode: "USD" },
    emailMarketingConsent: consent("SUBSCRIBED", "2024-01-01T09:00:00Z"),
  }).id;
  // Fran was a contact before the install, and unsubscribed in Crafter after Shopify's opt-in.
  const fran = await owner.post(`/api/contacts?projectId=${projectId}`, {
    email: "fran@example.com",
    firstName: "Francesca",
    tags: ["newsletter"],
  });
  expect(fran.status).toBe(201);
  franContactId = fran.body.result.id;
  expect(
    (await patch(`/api/contacts/${franContactId}?projectId=${projectId}`, { consent: "unsubscribed" })).status,
  ).toBe(200);
});

afterAll(() => store.stop());

describe("installing", () => {
  it("refuses a domain that is not a Shopify store's", async () => {
    for (const bad of ["their-store.com", "evil.example/.myshopify.crafter.test", ""]) {
      const answer = await start(bad);
      expect(answer.status).toBe(400);
    }
    expect(store.seen.authorizations).toHaveLength(0);
  });

  it("refuses a callback whose hmac does not match, and one whose shop was swapped", async () => {
    const started = await start(shop.toUpperCase());
    expect(started.status).toBe(200);
    const callback = await consent(started.body.result.authorizeUrl);
    const tampered = new URL(callback);
    tampered.searchParams.set("code", "0".repeat(32));
    expect(await back(tampered)).toBe("/app/settings/integrations?error=invalid_hmac&provider=shopify");
    const other = new URL(callback);
    other.searchParams.set("shop", `other.${env.SHOPIFY_SHOP_SUFFIX}`);
    expect(await back(other)).toBe("/app/settings/integrations?error=invalid_hmac&provider=shopify");
    expect(store.seen.tokenRequests).toBe(0);
    expect((await shopifyRow())?.connection).toBeUndefined();
  });

  it("installs with the callback's hmac and state checked, the offline token sealed, never shown", async () => {
    const started = await start(`https://${shop}/`);
    const authorize = new URL(started.body.result.authorizeUrl);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: env.SHOPIFY_CLIENT_ID,
      scope: "read_products,read_customers",
      redirect_uri: `${origin}/api/integrations/shopify/callback`,
    });
    expect(authorize.searchParams.has("grant_options[]")).toBe(false);
    const callback = await consent(authorize.toString());
    expect([...callback.searchParams.keys()].sort()).toEqual(["code", "hmac", "host", "shop", "state", "timestamp"]);
    expect(await back(callback)).toBe("/app/settings/integrations?connected=shopify");
    // The same callback again: its state was used.
    expect(await back(callback)).toBe("/app/settings/integrations?error=invalid_state&provider=shopify");

    const row = await shopifyRow();
    expect(row).toMatchObject({ kind: "shop_oauth", configured: true });
    expect(row?.connection).toMatchObject({
      state: "connected",
      remoteAccountId: shop,
      remoteAccountName: "Town Bikes",
      scopes: ["read_products", "read_customers"],
    });
    expect(JSON.stringify(row)).not.toContain("shpat_");
    for (const topic of ["products/update", "customers/create", "app/uninstalled"])
      expect(store.subscriptions(shop, topic)).toEqual([`${origin}/api/integrations/shopify/webhooks`]);
  });
});

describe("products become offerings", () => {
  it("imports the active products a page at a time, waiting out Shopify's cost limit", async () => {
    const list = await eventually(offerings, (items) => items.length >= 60);
    expect(list).toHaveLength(60);
    expect(list.some((item) => item.name === "Prototype")).toBe(false);
    const products = store.seen.pages.filter((page) => page.connection === "products");
    expect(products[0]).toMatchObject({ first: 50, after: null });
    expect(products.some((page) => page.after !== null)).toBe(true);
    expect(store.seen.throttled).toBeGreaterThan(0);
    const gravel = list.find((item) => item.name === "Gravel Explorer");
    expect(gravel).toMatchObject({
      description: expect.stringContaining("A gravel bike for long days."),
      keywords: ["gravel", "carbon"],
      fields: {
        pageUrl: `https://${shop}/products/gravel-explorer`,
        pageSlug: "gravel-explorer",
        seoSummary: "The gravel bike for long days out.",
        images: [expect.stringMatching(/^\/media\/public\/[A-Za-z0-9_-]{22}$/)],
      },
      source: "shopify",
      mediaAssetIds: [expect.any(String)],
    });
    // The image was copied into the media library once and is served from there.
    expect(store.seen.files).toEqual(["/cdn/shop/files/gravel.png"]);
    const image = await fetch(`${gatewayUrl()}${(gravel!.fields.images as string[])[0]}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
    gravelCopy = { path: (gravel!.fields.images as string[])[0]!, assetId: gravel!.mediaAssetIds[0]! };
    const row = await eventually(shopifyRow, (item) =>
      Boolean((item?.connection?.syncs as { part: string }[])?.some((sync) => sync.part === "products")),
    );
    expect(row?.connection?.syncs).toEqual(
      expect.arrayContaining([expect.objectContaining({ part: "products", imported: 60, error: "" })]),
    );
  });

  it("Sync now imports again without duplicates", async () => {
    store.setBucket({ maximumAvailable: 2000, restoreRate: 100 });
    const sync = await owner.post(`/api/integrations/shopify/sync?projectId=${projectId}`, {});
    expect(sync.status).toBe(200);
    await syncedSince(Date.parse(sync.body.result.requestedAt));
    const again = await offerings();
    expect(again).toHaveLength(60);
    // The image is not copied again: the same asset, the same path.
    expect(store.seen.files).toHaveLength(1);
    expect(again.find((item) => item.name === "Gravel Explorer")).toMatchObject({
      fields: { images: [gravelCopy.path] },
      mediaAssetIds: [gravelCopy.assetId],
    });
  });

  it("a product changed in the store changes here within seconds, through its webhook", async () => {
    await store.saveProduct(shop, {
      id: gravelId,
      title: "Gravel Explorer 2",
      handle: "gravel-explorer",
      descriptionHtml: "<p>Lighter.</p>",
      tags: ["gravel", "new"],
    });
    expect(store.seen.webhooks.at(-1)).toMatchObject({ topic: "products/update", status: 200 });
    const changed = await eventually(offerings, (items) => items.some((item) => item.name === "Gravel Explorer 2"));
    expect(changed.find((item) => item.name === "Gravel Explorer 2")).toMatchObject({
      description: "Lighter.",
      keywords: ["gravel", "new"],
    });
    await store.deleteProduct(shop, gravelId);
    const gone = await eventually(offerings, (items) => !items.some((item) => item.name.startsWith("Gravel Explorer")));
    expect(gone).toHaveLength(59);
  });
});

describe("customers become contacts", () => {
  it("imports the store's customers with their consent: subscribed only when Shopify says so", async () => {
    const rows = await eventually(contacts, (items) => items.filter((item) => item.source === "Shopify").length >= 4);
    expect(rows.map((row) => row.email).sort()).toEqual([
      "ada@example.com",
      "ben@example.com",
      "cara@example.com",
      "dan@example.com",
      "fran@example.com",
    ]);
    expect(byEmail(rows, "ada@example.com")).toMatchObject({
      firstName: "Ada",
      source: "Shopify",
      consent: "subscribed",
      consentAt: "2025-05-01T09:00:00.000Z",
      tags: ["VIP", "wholesale"],
      orderCount: 12,
      totalSpent: 1250.5,
      spentCurrency: "USD",
    });
    expect(byEmail(rows, "ben@example.com")?.consent).toBe("unsubscribed");
    expect(byEmail(rows, "cara@example.com")?.consent).toBe("pending");
    expect(byEmail(rows, "dan@example.com")?.consent).toBe("unsubscribed");
    // Fran's own contact: her unsubscribe in Crafter is newer than the store's opt-in; her own tag stays.
    expect(byEmail(rows, "fran@example.com")).toMatchObject({
      id: franContactId,
      source: "manual",
      consent: "unsubscribed",
      tags: ["newsletter", "returning"],
      orderCount: 3,
    });
    const ada = await owner.get(`/api/contacts/${byEmail(rows, "ada@example.com")!.id}?projectId=${projectId}`);
    expect(ada.body.result.consentHistory).toEqual([
      { status: "subscribed", at: "2025-05-01T09:00:00.000Z", source: "Shopify: subscribed, confirmed opt-in" },
    ]);
    const row = await eventually(shopifyRow, (item) =>
      Boolean((item?.connection?.syncs as { part: string }[])?.some((sync) => sync.part === "customers")),
    );
    expect(row?.connection?.syncs).toEqual(
      expect.arrayContaining([expect.objectContaining({ part: "customers", imported: 5, error: "" })]),
    );
  });

  it("gives segments the orders, total spent and tags", async () => {
    const preview = await owner.post(`/api/segments/preview?projectId=${projectId}`, {
      query: {
        combinator: "and",
        rules: [
          { field: "orderCount", operator: ">=", value: 3 },
          { field: "totalSpent", operator: ">", value: 100 },
          { field: "tags", operator: "contains", value: "vip" },
        ],
      },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.result.count).toBe(1);
    expect(preview.body.result.preview[0].email).toBe("ada@example.com");
  });

  it("follows the store's webhooks: the customer read again, deleted and redacted ones losing the store's data", async () => {
    await store.saveCustomer(shop, {
      id: benId,
      firstName: "Ben",
      lastName: "Never",
      email: "ben@example.com",
      phone: null,
      tags: ["first-order"],
      numberOfOrders: 2,
      amountSpent: { amount: "40.00", currencyCode: "USD" },
      emailMarketingConsent: {
        marketingState: "SUBSCRIBED",
        marketingOptInLevel: "SINGLE_OPT_IN",
        consentUpdatedAt: "2026-11-27T09:00:00Z",
      },
    });
    const first = store.seen.webhooks.at(-1)!;
    expect(first).toMatchObject({ topic: "customers/update", status: 200 });
    const subscribed = await eventually(contacts, (rows) => byEmail(rows, "ben@example.com")?.consent === "subscribed");
    expect(byEmail(subscribed, "ben@example.com")).toMatchObject({ orderCount: 2, tags: ["first-order"] });
    // Ben unsubscribes at the store; the first update then arrives again, late, under a new webhook id.
    await store.saveCustomer(shop, {
      id: benId,
      firstName: "Ben",
      lastName: "Never",
      email: "ben@example.com",
      phone: null,
      tags: [],
      numberOfOrders: 2,
      amountSpent: { amount: "40.00", currencyCode: "USD" },
      emailMarketingConsent: {
        marketingState: "UNSUBSCRIBED",
        marketingOptInLevel: null,
        consentUpdatedAt: "2026-11-28T07:00:00Z",
      },
    });
    await eventually(contacts, (rows) => byEmail(rows, "ben@example.com")?.consent === "unsubscribed");
    const late = await post({ headers: { ...first.headers, "x-shopify-webhook-id": randomUUID() }, body: first.body });
    expect(late.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(byEmail(await contacts(), "ben@example.com")).toMatchObject({ consent: "unsubscribed", tags: [] });

    await store.deleteCustomer(shop, adaId);
    await eventually(contacts, (rows) => !byEmail(rows, "ada@example.com"));
    const redact = await store.sendPrivacyWebhook(webhookUrl, shop, "customers/redact", {
      id: franId,
      email: "fran@example.com",
      phone: null,
    });
    expect(redact.status).toBe(200);
    const redacted = await eventually(contacts, (rows) => byEmail(rows, "fran@example.com")?.orderCount === null);
    expect(byEmail(redacted, "fran@example.com")).toMatchObject({
      id: franContactId,
      tags: ["newsletter"],
      orderCount: null,
      totalSpent: null,
      consent: "unsubscribed",
    });
  });

  it("tells the owner of a customer's data request, once per request, with where to export it", async () => {
    const request = await store.sendPrivacyWebhook(webhookUrl, shop, "customers/data_request", {
      id: benId,
      email: "ben@example.com",
      phone: null,
    });
    expect(request.status).toBe(200);
    expect((await store.redeliver(request)).status).toBe(200);
    const notices = async () =>
      (
        (await owner.get("/api/notifications")).body.result.result as { title: string; body: string; link: string }[]
      ).filter((notice) => notice.title === "A Shopify customer asked for their data");
    const found = await eventually(notices, (list) => list.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await notices()).toHaveLength(1);
    expect(found[0]).toMatchObject({
      body: expect.stringContaining("ben@example.com asked your Shopify store for the data kept about them"),
      link: "/app/contacts?q=ben%40example.com",
    });
  });
});

describe("webhooks", () => {
  it("refuses a body altered after signing, and records a redelivery once", async () => {
    const delivery = await store
      .saveProduct(shop, {
        title: "Commuter",
        handle: "commuter",
        descriptionHtml: "<p>A bike</p>",
        tags: [],
      })
      .then(() => store.seen.webhooks.at(-1)!);
    expect(delivery.url).toBe(`${origin}/api/integrations/shopify/webhooks`);
    expect(delivery.status).toBe(200);
    const again = await store.redeliver(delivery);
    expect(again.status).toBe(200);
    expect(store.seen.webhooks.at(-1)?.webhookId).toBe(delivery.webhookId);
    const repeated = await post(delivery);
    expect((await repeated.json()).result).toEqual({ first: false });
    const forged = await post({ headers: delivery.headers, body: delivery.body.replace("Commuter", "Forged") });
    expect(forged.status).toBe(401);
    const unsigned = await post({ headers: { ...delivery.headers, "x-shopify-hmac-sha256": "" }, body: delivery.body });
    expect(unsigned.status).toBe(401);
  });

  it("app/uninstalled ends the connection", async () => {
    await store.uninstall(shop);
    const sent = store.seen.webhooks.at(-1)!;
    expect(sent.topic).toBe("app/uninstalled");
    expect(sent.status).toBe(200);
    expect((await shopifyRow())?.connection).toBeUndefined();
  });
});
