// Shopify store import benchmark (not a timed test): a store of `--products` products (one image
// each) and `--customers` customers (half subscribed) is installed through the gateway against the
// local Shopify (packages/provider-fakes, on the test stack's SHOPIFY_ADMIN_ORIGIN port), for a user
// on Pro (5,000 profiles); printed: the seconds from the OAuth callback to each part's report
// (products as offerings with their images copied, customers as contacts), then the same for a
// "Sync now" of the unchanged store (nothing to write), and how many contacts and offerings there
// are. The local Shopify's bucket is Shopify Standard's (2,000 points, 100 a second), so its
// throttling is part of the figure. Needs the test stack and scripts/infra's servers.
//   node scripts/bench/run.mjs shopify [--products 200] [--customers 1000]
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { GatewaySession, gatewayUrl, linkFrom, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { LocalShopifyServer } from "@crafter/provider-fakes";
import { machine, numberArg, onProPlan, settle, stackEnv, userIdOf } from "./common";

const env = stackEnv();
const products = numberArg("products", 200);
const customers = numberArg("customers", 1000);
const storePort = Number(/:(\d+)$/.exec(env.SHOPIFY_ADMIN_ORIGIN ?? "")?.[1] ?? 28049);
const store = new LocalShopifyServer({
  clientId: env.SHOPIFY_CLIENT_ID ?? "",
  clientSecret: env.SHOPIFY_CLIENT_SECRET ?? "",
  suffix: env.SHOPIFY_SHOP_SUFFIX ?? "myshopify.crafter.test",
});

interface Sync {
  part: string;
  imported: number;
  error: string;
  finishedAt: string;
}

async function admin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  await session.post("/auth/signin", { email, password: "password-123" });
  return session;
}

/** The seconds until both parts reported an import finished at or after `since`, and their reports. */
async function bothReported(owner: GatewaySession, projectId: string, since: number, started: number) {
  for (;;) {
    const list = await owner.get(`/api/integrations?projectId=${projectId}`);
    const row = (list.body.result as { provider: string; connection?: { syncs: Sync[] } }[]).find(
      (item) => item.provider === "shopify",
    );
    const syncs = (row?.connection?.syncs ?? []).filter((sync) => Date.parse(sync.finishedAt) >= since);
    if (syncs.length === 2)
      return syncs.map((sync) => ({ ...sync, seconds: (Date.parse(sync.finishedAt) - started) / 1000 }));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

await store.start(storePort);
const shop = store.addShop(`bench-${randomUUID().slice(0, 6)}`, "Bench Bikes");
for (let n = 0; n < products; n++)
  store.seedProduct(shop, {
    title: `Bike ${n}`,
    handle: `bike-${n}`,
    descriptionHtml: `<p>Bike number ${n}, for the bench.</p>`,
    tags: ["bench", `size-${n % 5}`],
    images: [{ id: n + 1, url: `http://${shop}:${storePort}/cdn/shop/files/bike-${n}.png`, altText: `Bike ${n}` }],
  });
for (let n = 0; n < customers; n++)
  store.seedCustomer(shop, {
    firstName: `Rider${n}`,
    lastName: "Bench",
    email: `rider${n}@bench.example`,
    phone: null,
    tags: n % 3 ? ["returning"] : ["vip"],
    numberOfOrders: n % 20,
    amountSpent: { amount: `${(n % 20) * 45}.00`, currencyCode: "USD" },
    emailMarketingConsent: {
      marketingState: n % 2 ? "SUBSCRIBED" : "NOT_SUBSCRIBED",
      marketingOptInLevel: n % 2 ? "SINGLE_OPT_IN" : null,
      consentUpdatedAt: "2026-01-01T09:00:00Z",
    },
  });

const { session: owner } = await verifiedSession("bench-shopify");
const userId = userIdOf(owner);
await onProPlan(userId);
await (await admin()).put(`/api/admin/users/${userId}/flags`, { flag: "shopify_integration", enabled: true });
const created = await owner.post("/api/projects/createProject", { name: "Bench Bikes", description: "Bench" });
const projectId = created.body.result.project.projectId as string;

console.log(`${products} products, ${customers} customers; ${machine()}`);
console.log(await settle());
const authorize = new URL(
  (await owner.post(`/api/integrations/shopify/connect?projectId=${projectId}`, { shop })).body.result.authorizeUrl,
);
const callback = await new Promise<URL>((resolve, reject) => {
  const req = request(
    {
      host: "127.0.0.1",
      port: storePort,
      path: `${authorize.pathname}${authorize.search}`,
      headers: { host: authorize.host },
    },
    (res) => {
      res.resume();
      resolve(new URL(String(res.headers.location)));
    },
  );
  req.on("error", reject);
  req.end();
});
const installed = Date.now();
await fetch(`${gatewayUrl()}${callback.pathname}${callback.search}`, { redirect: "manual" });
for (const sync of await bothReported(owner, projectId, installed - 1000, installed))
  console.log(
    `install  ${sync.part.padEnd(9)} ${String(sync.imported).padStart(6)} in ${sync.seconds.toFixed(1)} s ${sync.error}`,
  );
console.log(`  throttled answers ${store.seen.throttled}, images fetched ${store.seen.files.length}; ${machine()}`);

console.log(await settle());
const again = Date.now();
const requested = Date.parse(
  (await owner.post(`/api/integrations/shopify/sync?projectId=${projectId}`, {})).body.result.requestedAt,
);
for (const sync of await bothReported(owner, projectId, requested, again))
  console.log(
    `sync now ${sync.part.padEnd(9)} ${String(sync.imported).padStart(6)} in ${sync.seconds.toFixed(1)} s ${sync.error}`,
  );
const contacts = (await owner.get(`/api/contacts?projectId=${projectId}&pageSize=1`)).body.result.meta.count;
const offerings = (await owner.get(`/api/profiles?projectId=${projectId}&profileType=PRODUCT`)).body.result.profiles
  .length;
console.log(`  contacts ${contacts}, offerings ${offerings}, images fetched ${store.seen.files.length}; ${machine()}`);
await store.stop();
