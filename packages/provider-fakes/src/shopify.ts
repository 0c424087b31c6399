import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32, deflateSync } from "node:zlib";
import {
  buildSchema,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  graphql,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  validate,
} from "graphql";

/**
 * A local Shopify for tests: shops at `<name>.myshopify.crafter.test` (the host name picks the shop;
 * any other host, e.g. 127.0.0.1, is `defaultShop`), speaking what Shopify documents:
 *
 * - OAuth (authorization code grant): `GET /admin/oauth/authorize` (client_id, scope, redirect_uri,
 *   state, grant_options[]) redirects to the redirect URI with `code`, `hmac`, `host`, `shop`,
 *   `state`, `timestamp` (hmac: HMAC-SHA256 hex of the sorted query without hmac, keyed by the app's
 *   secret); `POST /admin/oauth/access_token` (JSON or form: client_id, client_secret, code; codes are
 *   single use) answers an offline token `{ access_token, scope }` (with `grant_options[]=per-user`,
 *   an online one with `expires_in` and `associated_user`);
 * - `DELETE /admin/api_permissions/current.json`: uninstalls the app (the token stops working, and
 *   `app/uninstalled` is sent);
 * - the Admin GraphQL API at `POST /admin/api/2025-01/graphql.json` (`X-Shopify-Access-Token`),
 *   executed against a subset of Shopify's schema (SCHEMA below: shop, products, product,
 *   customers, customer, webhookSubscriptionCreate), so a query naming a field Shopify does not
 *   have fails as it would there; connections take `first` (at most 250) and `after` and answer
 *   `pageInfo { hasNextPage endCursor }`; every answer has `extensions.cost` with its
 *   `throttleStatus` from a leaky bucket (`bucket`), and a query that does not fit answers
 *   `{ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] }`;
 * - webhooks to the subscriptions' callback URLs, signed as Shopify signs them
 *   (`X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body; `X-Shopify-Topic`,
 *   `X-Shopify-Shop-Domain`, `X-Shopify-Webhook-Id`, `X-Shopify-Event-Id`, `X-Shopify-API-Version`,
 *   `X-Shopify-Triggered-At`), with REST-shaped bodies (`id`, `admin_graphql_api_id`, …).
 *
 * - the store's files (what Shopify's CDN serves): `GET /cdn/shop/files/<name>.png` on a shop's
 *   host answers a small PNG (its colour from the name), so a product image can be copied.
 *
 * Counters in `seen` let tests assert what Crafter did.
 */
export interface ShopifyServerOptions {
  clientId: string;
  clientSecret: string;
  /** The shop domains' suffix (default `myshopify.crafter.test`). */
  suffix?: string;
  /** The shop a request to any other host name is for. */
  defaultShop?: string;
  /** Calculated-cost bucket: points held at most and restored per second (Shopify Standard: 2000 and 100). */
  bucket?: { maximumAvailable: number; restoreRate: number };
}

export interface FakeProduct {
  id: number;
  title: string;
  handle: string;
  descriptionHtml: string;
  tags: string[];
  productType?: string;
  vendor?: string;
  status?: "ACTIVE" | "ARCHIVED" | "DRAFT";
  seo?: { title: string | null; description: string | null };
  images?: { id: number; url: string; altText: string | null }[];
  /** Whether it is published to the online store (then it has an `onlineStoreUrl`). */
  published?: boolean;
  updatedAt?: string;
}

export interface FakeCustomer {
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone?: string | null;
  tags: string[];
  numberOfOrders: number;
  amountSpent: { amount: string; currencyCode: string };
  emailMarketingConsent: {
    marketingState: "NOT_SUBSCRIBED" | "PENDING" | "SUBSCRIBED" | "UNSUBSCRIBED" | "REDACTED" | "INVALID";
    marketingOptInLevel: "SINGLE_OPT_IN" | "CONFIRMED_OPT_IN" | "UNKNOWN" | null;
    consentUpdatedAt: string | null;
  } | null;
  note?: string | null;
  updatedAt?: string;
}

interface FakeShop {
  domain: string;
  name: string;
  id: number;
  products: Map<number, FakeProduct>;
  customers: Map<number, FakeCustomer>;
  /** topic (`products/update`) → callback URLs. */
  subscriptions: Map<string, Set<string>>;
  bucket: { available: number; at: number };
}

interface Token {
  shop: string;
  scope: string;
  revoked: boolean;
}

/** One webhook sent, as the receiver got it. */
export interface WebhookDelivery {
  url: string;
  topic: string;
  shop: string;
  webhookId: string;
  eventId: string;
  body: string;
  headers: Record<string, string>;
  status: number;
}

const SCHEMA = buildSchema(`
  scalar DateTime
  scalar URL
  scalar HTML
  scalar Decimal
  scalar UnsignedInt64

  type Query {
    shop: Shop!
    products(first: Int, after: String, last: Int, before: String, query: String, sortKey: ProductSortKeys, reverse: Boolean): ProductConnection!
    product(id: ID!): Product
    customers(first: Int, after: String, last: Int, before: String, query: String, sortKey: CustomerSortKeys, reverse: Boolean): CustomerConnection!
    customer(id: ID!): Customer
  }
  type Mutation {
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
  }
  enum ProductSortKeys { ID TITLE UPDATED_AT CREATED_AT }
  enum CustomerSortKeys { ID NAME UPDATED_AT CREATED_AT }
  type Shop { id: ID! name: String! myshopifyDomain: String! email: String! url: URL! currencyCode: CurrencyCode! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type ProductConnection { edges: [ProductEdge!]! nodes: [Product!]! pageInfo: PageInfo! }
  type ProductEdge { cursor: String! node: Product! }
  enum ProductStatus { ACTIVE ARCHIVED DRAFT }
  type SEO { title: String description: String }
  type Product {
    id: ID! legacyResourceId: UnsignedInt64! title: String! handle: String! description(truncateAt: Int): String!
    descriptionHtml: HTML! onlineStoreUrl: URL onlineStorePreviewUrl: URL tags: [String!]! productType: String!
    vendor: String! status: ProductStatus! seo: SEO! createdAt: DateTime! updatedAt: DateTime!
    media(first: Int, after: String): MediaConnection! featuredMedia: Media
  }
  enum MediaContentType { IMAGE VIDEO EXTERNAL_VIDEO MODEL_3D }
  interface Media { id: ID! alt: String mediaContentType: MediaContentType! }
  type MediaImage implements Media { id: ID! alt: String mediaContentType: MediaContentType! image: Image }
  type Video implements Media { id: ID! alt: String mediaContentType: MediaContentType! }
  type Image { id: ID url: URL! altText: String width: Int height: Int }
  type MediaConnection { edges: [MediaEdge!]! nodes: [Media!]! pageInfo: PageInfo! }
  type MediaEdge { cursor: String! node: Media! }
  enum CurrencyCode { USD EUR GBP CAD AUD }
  type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
  enum CustomerEmailMarketingState { NOT_SUBSCRIBED PENDING SUBSCRIBED UNSUBSCRIBED REDACTED INVALID }
  enum CustomerMarketingOptInLevel { SINGLE_OPT_IN CONFIRMED_OPT_IN UNKNOWN }
  type CustomerEmailMarketingConsentState { marketingState: CustomerEmailMarketingState! marketingOptInLevel: CustomerMarketingOptInLevel consentUpdatedAt: DateTime }
  type Customer {
    id: ID! legacyResourceId: UnsignedInt64! firstName: String lastName: String displayName: String! email: String phone: String
    tags: [String!]! numberOfOrders: UnsignedInt64! amountSpent: MoneyV2! note: String
    emailMarketingConsent: CustomerEmailMarketingConsentState createdAt: DateTime! updatedAt: DateTime!
  }
  type CustomerConnection { edges: [CustomerEdge!]! nodes: [Customer!]! pageInfo: PageInfo! }
  type CustomerEdge { cursor: String! node: Customer! }
  enum WebhookSubscriptionTopic { APP_UNINSTALLED PRODUCTS_CREATE PRODUCTS_UPDATE PRODUCTS_DELETE CUSTOMERS_CREATE CUSTOMERS_UPDATE CUSTOMERS_DELETE }
  enum WebhookSubscriptionFormat { JSON XML }
  input WebhookSubscriptionInput { callbackUrl: URL format: WebhookSubscriptionFormat includeFields: [String!] }
  type WebhookSubscription { id: ID! topic: WebhookSubscriptionTopic! callbackUrl: URL! format: WebhookSubscriptionFormat! }
  type UserError { field: [String!] message: String! }
  type WebhookSubscriptionCreatePayload { webhookSubscription: WebhookSubscription userErrors: [UserError!]! }
`);

const MAX_PAGE = 250;
const API_PATH = "/admin/api/2025-01/graphql.json";

export class LocalShopifyServer {
  private server: Server | undefined;
  private readonly shops = new Map<string, FakeShop>();
  private readonly codes = new Map<string, { shop: string; scope: string; online: boolean; used: boolean }>();
  private readonly tokens = new Map<string, Token>();
  private readonly suffix: string;
  private bucket: { maximumAvailable: number; restoreRate: number };
  private nextId = 7_000_000_001;
  /** Root fields (`products`) whose next queries answer THROTTLED whatever the bucket holds (throttleNext). */
  private readonly throttles = new Map<string, number>();
  /** What the store saw and sent, for tests. */
  readonly seen = {
    authorizations: [] as Record<string, string>[],
    tokenRequests: 0,
    refusedTokenRequests: 0,
    /** GraphQL calls answered with data, and those answered THROTTLED. */
    queries: 0,
    throttled: 0,
    /** The `first` of each products / customers page asked for. */
    pages: [] as { connection: string; first: number; after: string | null }[],
    uninstalls: 0,
    webhooks: [] as WebhookDelivery[],
    /** Paths of the files (product images) fetched. */
    files: [] as string[],
  };

  constructor(private readonly options: ShopifyServerOptions) {
    this.suffix = options.suffix ?? "myshopify.crafter.test";
    this.bucket = options.bucket ?? { maximumAvailable: 2000, restoreRate: 100 };
  }

  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        json(res, 500, { errors: [{ message: `Internal error: ${error.message}` }] });
      });
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Adds a shop (`name` → `name.<suffix>`). @returns its domain. */
  addShop(name: string, title = name): string {
    const domain = `${name}.${this.suffix}`;
    this.shops.set(domain, {
      domain,
      name: title,
      id: this.id(),
      products: new Map(),
      customers: new Map(),
      subscriptions: new Map(),
      bucket: { available: this.bucket.maximumAvailable, at: Date.now() },
    });
    return domain;
  }

  /**
   * The next `times` queries that read the root field `field` (`products`, `customers`) answer
   * THROTTLED, as when another app of the shop emptied the bucket: a test of waiting it out that
   * does not depend on how fast the client is.
   */
  throttleNext(field: string, times = 1): void {
    this.throttles.set(field, (this.throttles.get(field) ?? 0) + times);
  }

  /** Sets the cost bucket of every shop (and refills it). */
  setBucket(bucket: { maximumAvailable: number; restoreRate: number }): void {
    this.bucket = bucket;
    for (const shop of this.shops.values()) shop.bucket = { available: bucket.maximumAvailable, at: Date.now() };
  }

  private shop(domain: string): FakeShop {
    const shop = this.shops.get(domain);
    if (!shop) throw new Error(`no shop ${domain}`);
    return shop;
  }

  private id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  /** Adds a product without a webhook (the store's state before the install). @returns it. */
  seedProduct(domain: string, product: Omit<FakeProduct, "id"> & { id?: number }): FakeProduct {
    const full: FakeProduct = { updatedAt: new Date().toISOString(), ...product, id: product.id ?? this.id() };
    this.shop(domain).products.set(full.id, full);
    return full;
  }

  seedCustomer(domain: string, customer: Omit<FakeCustomer, "id"> & { id?: number }): FakeCustomer {
    const full: FakeCustomer = { updatedAt: new Date().toISOString(), ...customer, id: customer.id ?? this.id() };
    this.shop(domain).customers.set(full.id, full);
    return full;
  }

  /** Creates or updates a product in the store and sends `products/create` or `products/update`. */
  async saveProduct(domain: string, product: Omit<FakeProduct, "id"> & { id?: number }): Promise<FakeProduct> {
    const existed = product.id !== undefined && this.shop(domain).products.has(product.id);
    const full = this.seedProduct(domain, { ...product, updatedAt: new Date().toISOString() });
    await this.emit(domain, existed ? "products/update" : "products/create", this.restProduct(this.shop(domain), full));
    return full;
  }

  async deleteProduct(domain: string, id: number): Promise<void> {
    this.shop(domain).products.delete(id);
    await this.emit(domain, "products/delete", { id });
  }

  async saveCustomer(domain: string, customer: Omit<FakeCustomer, "id"> & { id?: number }): Promise<FakeCustomer> {
    const existed = customer.id !== undefined && this.shop(domain).customers.has(customer.id);
    const full = this.seedCustomer(domain, { ...customer, updatedAt: new Date().toISOString() });
    await this.emit(domain, existed ? "customers/update" : "customers/create", restCustomer(full));
    return full;
  }

  async deleteCustomer(domain: string, id: number): Promise<void> {
    this.shop(domain).customers.delete(id);
    await this.emit(domain, "customers/delete", { id, admin_graphql_api_id: `gid://shopify/Customer/${id}` });
  }

  /** The merchant uninstalls the app in their admin: every token of the shop stops working, `app/uninstalled` is sent. */
  async uninstall(domain: string): Promise<void> {
    this.seen.uninstalls += 1;
    for (const token of this.tokens.values()) if (token.shop === domain) token.revoked = true;
    const shop = this.shop(domain);
    const targets = [...(shop.subscriptions.get("app/uninstalled") ?? [])];
    shop.subscriptions.clear();
    for (const url of targets) await this.send(url, domain, "app/uninstalled", this.restShop(shop));
  }

  /**
   * A mandatory privacy webhook (`customers/data_request`, `customers/redact`, `shop/redact`), which
   * Shopify sends to the URLs of the app's configuration, not to API subscriptions.
   */
  async sendPrivacyWebhook(
    url: string,
    domain: string,
    topic: "customers/data_request" | "customers/redact" | "shop/redact",
    customer?: { id: number; email: string | null; phone: string | null },
  ): Promise<WebhookDelivery> {
    const shop = this.shop(domain);
    const base = { shop_id: shop.id, shop_domain: domain };
    const body =
      topic === "shop/redact"
        ? base
        : topic === "customers/redact"
          ? { ...base, customer, orders_to_redact: [] }
          : { ...base, customer, orders_requested: [], data_request: { id: this.id() } };
    return this.send(url, domain, topic, body);
  }

  /** Sends a delivered webhook again, same id and body (Shopify retries until it gets a 2xx). */
  async redeliver(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    return this.deliver(
      delivery.url,
      delivery.topic,
      delivery.shop,
      delivery.webhookId,
      delivery.eventId,
      delivery.body,
    );
  }

  /** Sends a webhook whose body was altered after signing (a forgery). */
  async sendTampered(delivery: WebhookDelivery, body: string): Promise<number> {
    const response = await fetch(delivery.url, { method: "POST", headers: delivery.headers, body });
    return response.status;
  }

  /** The callback URLs subscribed to `topic` (`products/update`) at a shop. */
  subscriptions(domain: string, topic: string): string[] {
    return [...(this.shop(domain).subscriptions.get(topic) ?? [])];
  }

  /** Whether an access token works. */
  isLive(accessToken: string): boolean {
    const token = this.tokens.get(accessToken);
    return Boolean(token && !token.revoked);
  }

  private async emit(domain: string, topic: string, payload: unknown): Promise<void> {
    for (const url of this.subscriptions(domain, topic)) await this.send(url, domain, topic, payload);
  }

  private async send(url: string, domain: string, topic: string, payload: unknown): Promise<WebhookDelivery> {
    return this.deliver(url, topic, domain, randomUUID(), randomUUID(), JSON.stringify(payload));
  }

  private async deliver(
    url: string,
    topic: string,
    shop: string,
    webhookId: string,
    eventId: string,
    body: string,
  ): Promise<WebhookDelivery> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-hmac-sha256": createHmac("sha256", this.options.clientSecret).update(body).digest("base64"),
      "x-shopify-shop-domain": shop,
      "x-shopify-api-version": "2025-01",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-event-id": eventId,
      "x-shopify-triggered-at": new Date().toISOString(),
    };
    let status = 0;
    try {
      const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    const delivery = { url, topic, shop, webhookId, eventId, body, headers, status };
    this.seen.webhooks.push(delivery);
    return delivery;
  }

  private shopOf(req: IncomingMessage): FakeShop | undefined {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    return this.shops.get(host) ?? (this.options.defaultShop ? this.shops.get(this.options.defaultShop) : undefined);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const shop = this.shopOf(req);
    if (!shop) return json(res, 404, { errors: "Not Found" });
    if (req.method === "GET" && url.pathname === "/admin/oauth/authorize") return this.authorize(shop, url, res);
    if (req.method === "POST" && url.pathname === "/admin/oauth/access_token") return this.accessToken(shop, req, res);
    if (req.method === "DELETE" && url.pathname === "/admin/api_permissions/current.json") {
      const token = this.tokenOf(shop, req);
      if (!token)
        return json(res, 401, {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
        });
      json(res, 200, {});
      await this.uninstall(shop.domain);
      return;
    }
    if (req.method === "POST" && url.pathname === API_PATH) return this.graphqlCall(shop, req, res);
    const file = /^\/cdn\/shop\/files\/([a-z0-9_-]{1,60})\.png$/.exec(url.pathname);
    if (req.method === "GET" && file) {
      this.seen.files.push(url.pathname);
      const png = solidPng(file[1]!);
      res.writeHead(200, { "content-type": "image/png", "content-length": png.length });
      return void res.end(png);
    }
    json(res, 404, { errors: "Not Found" });
  }

  private authorize(shop: FakeShop, url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    this.seen.authorizations.push(Object.fromEntries(q));
    const redirectUri = q.get("redirect_uri") ?? "";
    // Shopify shows an error page (never a redirect) for an unknown app or a redirect URI it does not allow.
    if (q.get("client_id") !== this.options.clientId || !/^https?:\/\//.test(redirectUri)) {
      res.writeHead(400, { "content-type": "text/html" });
      return void res.end("<h1>Oauth error invalid_request: The redirect_uri is not whitelisted</h1>");
    }
    const code = randomBytes(16).toString("hex");
    const online = q.getAll("grant_options[]").includes("per-user");
    this.codes.set(code, { shop: shop.domain, scope: q.get("scope") ?? "", online, used: false });
    const back = new URL(redirectUri);
    const params = new URLSearchParams({
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.domain.split(".")[0]}`).toString("base64url"),
      shop: shop.domain,
      state: q.get("state") ?? "",
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    params.set("hmac", signQuery(params, this.options.clientSecret));
    for (const [name, value] of params) back.searchParams.set(name, value);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async accessToken(shop: FakeShop, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.tokenRequests += 1;
    const text = await bodyOf(req);
    const type = req.headers["content-type"] ?? "";
    let form: Record<string, string> = {};
    try {
      form = type.includes("json")
        ? (JSON.parse(text) as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(text));
    } catch {
      form = {};
    }
    const entry = this.codes.get(String(form.code ?? ""));
    if (form.client_id !== this.options.clientId || form.client_secret !== this.options.clientSecret) {
      this.seen.refusedTokenRequests += 1;
      return json(res, 400, { error: "invalid_client", error_description: "Client credentials are invalid" });
    }
    if (!entry || entry.used || entry.shop !== shop.domain) {
      this.seen.refusedTokenRequests += 1;
      return json(res, 400, {
        error: "invalid_request",
        error_description: "The authorization code was not found or was already used",
      });
    }
    entry.used = true;
    const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
    this.tokens.set(accessToken, { shop: shop.domain, scope: entry.scope, revoked: false });
    json(
      res,
      200,
      entry.online
        ? {
            access_token: accessToken,
            scope: entry.scope,
            expires_in: 86399,
            associated_user_scope: entry.scope,
            associated_user: { id: 902541635, first_name: "Owner", email: "owner@example.com", account_owner: true },
          }
        : { access_token: accessToken, scope: entry.scope },
    );
  }

  private tokenOf(shop: FakeShop, req: IncomingMessage): Token | undefined {
    const given = String(req.headers["x-shopify-access-token"] ?? "");
    const token = this.tokens.get(given);
    return token && !token.revoked && token.shop === shop.domain ? token : undefined;
  }

  private async graphqlCall(shop: FakeShop, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = this.tokenOf(shop, req);
    if (!token)
      return json(res, 401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    let body: { query?: unknown; variables?: unknown };
    try {
      body = JSON.parse(await bodyOf(req)) as typeof body;
    } catch {
      return json(res, 400, { errors: { query: "Required parameter missing or invalid" } });
    }
    if (typeof body.query !== "string")
      return json(res, 400, { errors: { query: "Required parameter missing or invalid" } });
    const variables = (typeof body.variables === "object" && body.variables ? body.variables : {}) as Record<
      string,
      unknown
    >;
    let document: ReturnType<typeof parse>;
    try {
      document = parse(body.query);
    } catch (error) {
      return json(res, 200, {
        errors: [{ message: (error as GraphQLError).message, extensions: { code: "PARSE_ERROR" } }],
      });
    }
    const problems = validate(SCHEMA, document);
    if (problems.length > 0)
      return json(res, 200, {
        errors: problems.map((problem) => ({
          message: problem.message,
          extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
        })),
      });
    const requested = queryCost(document, variables);
    const bucket = this.refill(shop);
    const throttleStatus = () => ({
      maximumAvailable: this.bucket.maximumAvailable,
      currentlyAvailable: Math.floor(shop.bucket.available),
      restoreRate: this.bucket.restoreRate,
    });
    if (requested > this.bucket.maximumAvailable)
      return json(res, 200, {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${this.bucket.maximumAvailable}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: this.bucket.maximumAvailable },
          },
        ],
        extensions: {
          cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() },
        },
      });
    const forced = document.definitions.some(
      (definition) =>
        definition.kind === Kind.OPERATION_DEFINITION &&
        definition.selectionSet.selections.some(
          (selection) => selection.kind === Kind.FIELD && (this.throttles.get(selection.name.value) ?? 0) > 0,
        ),
    );
    if (forced) {
      for (const definition of document.definitions)
        if (definition.kind === Kind.OPERATION_DEFINITION)
          for (const selection of definition.selectionSet.selections)
            if (selection.kind === Kind.FIELD && (this.throttles.get(selection.name.value) ?? 0) > 0)
              this.throttles.set(selection.name.value, this.throttles.get(selection.name.value)! - 1);
      // The bucket as another app left it: just short of this query.
      shop.bucket.available = Math.max(0, requested - this.bucket.restoreRate);
    }
    if (requested > bucket.available) {
      this.seen.throttled += 1;
      return json(res, 200, {
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: {
          cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() },
        },
      });
    }
    shop.bucket.available -= requested;
    this.seen.queries += 1;
    const result = await graphql({
      schema: SCHEMA,
      source: body.query,
      variableValues: variables,
      rootValue: this.resolvers(shop),
    });
    json(res, 200, {
      ...(result.errors
        ? { errors: result.errors.map((error) => ({ message: error.message, path: error.path })) }
        : {}),
      data: result.data ?? null,
      extensions: {
        cost: { requestedQueryCost: requested, actualQueryCost: requested, throttleStatus: throttleStatus() },
      },
    });
  }

  private refill(shop: FakeShop): { available: number } {
    const now = Date.now();
    shop.bucket.available = Math.min(
      this.bucket.maximumAvailable,
      shop.bucket.available + ((now - shop.bucket.at) / 1000) * this.bucket.restoreRate,
    );
    shop.bucket.at = now;
    return shop.bucket;
  }

  private resolvers(shop: FakeShop): Record<string, unknown> {
    const connection = <T extends { id: number }>(
      name: string,
      all: T[],
      map: (item: T) => unknown,
      args: PageArgs,
    ) => {
      const first = args.first ?? 0;
      if (!(first > 0) || first > MAX_PAGE)
        throw new GraphQLError(`The first argument must be between 1 and ${MAX_PAGE}.`);
      this.seen.pages.push({ connection: name, first, after: args.after ?? null });
      const sorted = [...all].sort((a, b) => a.id - b.id);
      const afterId = args.after ? cursorId(args.after) : 0;
      const rest = sorted.filter((item) => item.id > afterId);
      const page = rest.slice(0, first);
      const edges = page.map((item) => ({ cursor: cursorOf(item.id), node: map(item) }));
      return {
        edges,
        nodes: edges.map((edge) => edge.node),
        pageInfo: {
          hasNextPage: rest.length > page.length,
          hasPreviousPage: afterId > 0,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    };
    const gidNumber = (gid: string, type: string) => {
      const match = new RegExp(`^gid://shopify/${type}/(\\d+)$`).exec(gid);
      return match ? Number(match[1]) : -1;
    };
    return {
      shop: () => ({
        id: `gid://shopify/Shop/${shop.id}`,
        name: shop.name,
        myshopifyDomain: shop.domain,
        email: `owner@${shop.domain}`,
        url: `https://${shop.domain}`,
        currencyCode: "USD",
      }),
      products: (args: PageArgs & { query?: string }) =>
        connection(
          "products",
          [...shop.products.values()].filter(
            (product) => !/status:active/i.test(args.query ?? "") || (product.status ?? "ACTIVE") === "ACTIVE",
          ),
          (product) => this.gqlProduct(shop, product),
          args,
        ),
      product: ({ id }: { id: string }) => {
        const product = shop.products.get(gidNumber(id, "Product"));
        return product ? this.gqlProduct(shop, product) : null;
      },
      customers: (args: PageArgs) => connection("customers", [...shop.customers.values()], gqlCustomer, args),
      customer: ({ id }: { id: string }) => {
        const customer = shop.customers.get(gidNumber(id, "Customer"));
        return customer ? gqlCustomer(customer) : null;
      },
      webhookSubscriptionCreate: ({
        topic,
        webhookSubscription,
      }: {
        topic: string;
        webhookSubscription: { callbackUrl?: string; format?: string };
      }) => {
        const callbackUrl = webhookSubscription.callbackUrl ?? "";
        if (!/^https?:\/\//.test(callbackUrl))
          return {
            webhookSubscription: null,
            userErrors: [{ field: ["webhookSubscription", "callbackUrl"], message: "Address is invalid" }],
          };
        const name = topic.toLowerCase().replace("_", "/");
        const set = shop.subscriptions.get(name) ?? new Set<string>();
        if (set.has(callbackUrl))
          return {
            webhookSubscription: null,
            userErrors: [
              {
                field: ["webhookSubscription", "callbackUrl"],
                message: "Address for this topic has already been taken",
              },
            ],
          };
        set.add(callbackUrl);
        shop.subscriptions.set(name, set);
        return {
          webhookSubscription: {
            id: `gid://shopify/WebhookSubscription/${this.id()}`,
            topic,
            callbackUrl,
            format: webhookSubscription.format ?? "JSON",
          },
          userErrors: [],
        };
      },
    };
  }

  private gqlProduct(shop: FakeShop, product: FakeProduct): unknown {
    const images = product.images ?? [];
    const media = images.map((image) => ({
      __typename: "MediaImage",
      id: `gid://shopify/MediaImage/${image.id}`,
      alt: image.altText,
      mediaContentType: "IMAGE",
      image: {
        id: `gid://shopify/ProductImage/${image.id}`,
        url: image.url,
        altText: image.altText,
        width: 800,
        height: 800,
      },
    }));
    const published = product.published ?? true;
    return {
      id: `gid://shopify/Product/${product.id}`,
      legacyResourceId: String(product.id),
      title: product.title,
      handle: product.handle,
      description: () => product.descriptionHtml.replace(/<[^>]*>/g, ""),
      descriptionHtml: product.descriptionHtml,
      onlineStoreUrl: published ? `https://${shop.domain}/products/${product.handle}` : null,
      onlineStorePreviewUrl: `https://${shop.domain}/products/${product.handle}`,
      tags: product.tags,
      productType: product.productType ?? "",
      vendor: product.vendor ?? shop.name,
      status: product.status ?? "ACTIVE",
      seo: product.seo ?? { title: null, description: null },
      createdAt: product.updatedAt,
      updatedAt: product.updatedAt,
      media: (args: PageArgs) => {
        const first = Math.min(args.first ?? 0, MAX_PAGE);
        return {
          edges: media.slice(0, first).map((node, index) => ({ cursor: cursorOf(index + 1), node })),
          nodes: media.slice(0, first),
          pageInfo: { hasNextPage: media.length > first, hasPreviousPage: false, startCursor: null, endCursor: null },
        };
      },
      featuredMedia: media[0] ?? null,
    };
  }

  private restProduct(shop: FakeShop, product: FakeProduct): unknown {
    return {
      id: product.id,
      admin_graphql_api_id: `gid://shopify/Product/${product.id}`,
      title: product.title,
      body_html: product.descriptionHtml,
      handle: product.handle,
      product_type: product.productType ?? "",
      vendor: product.vendor ?? shop.name,
      status: (product.status ?? "ACTIVE").toLowerCase(),
      tags: product.tags.join(", "),
      updated_at: product.updatedAt,
      images: (product.images ?? []).map((image) => ({ id: image.id, src: image.url, alt: image.altText })),
    };
  }

  private restShop(shop: FakeShop): unknown {
    return { id: shop.id, name: shop.name, domain: shop.domain, myshopify_domain: shop.domain };
  }
}

interface PageArgs {
  first?: number;
  after?: string;
}

function gqlCustomer(customer: FakeCustomer): unknown {
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(" ");
  return {
    id: `gid://shopify/Customer/${customer.id}`,
    legacyResourceId: String(customer.id),
    firstName: customer.firstName,
    lastName: customer.lastName,
    displayName: name || customer.email || "",
    email: customer.email,
    phone: customer.phone ?? null,
    tags: customer.tags,
    numberOfOrders: String(customer.numberOfOrders),
    amountSpent: customer.amountSpent,
    note: customer.note ?? null,
    emailMarketingConsent: customer.email ? customer.emailMarketingConsent : null,
    createdAt: customer.updatedAt,
    updatedAt: customer.updatedAt,
  };
}

function restCustomer(customer: FakeCustomer): unknown {
  return {
    id: customer.id,
    admin_graphql_api_id: `gid://shopify/Customer/${customer.id}`,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    tags: customer.tags.join(", "),
    orders_count: customer.numberOfOrders,
    total_spent: customer.amountSpent.amount,
    email_marketing_consent: customer.emailMarketingConsent
      ? {
          state: customer.emailMarketingConsent.marketingState.toLowerCase(),
          opt_in_level: customer.emailMarketingConsent.marketingOptInLevel?.toLowerCase() ?? null,
          consent_updated_at: customer.emailMarketingConsent.consentUpdatedAt,
        }
      : null,
    updated_at: customer.updatedAt,
  };
}

/** Shopify's query signature (OAuth redirects): HMAC-SHA256 hex of `k=v&…` sorted, without `hmac`. */
function signQuery(params: URLSearchParams, secret: string): string {
  const message = [...params.entries()]
    .filter(([name]) => name !== "hmac")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  return createHmac("sha256", secret).update(message).digest("hex");
}

const cursorOf = (id: number) => Buffer.from(JSON.stringify({ last_id: id })).toString("base64");

function cursorId(cursor: string): number {
  try {
    const id = Number((JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last_id?: unknown }).last_id);
    if (Number.isFinite(id)) return id;
  } catch {
    // fall through
  }
  throw new GraphQLError("Invalid cursor for current pagination sort.");
}

/**
 * The requested cost of a query as Shopify's calculation counts it: an object field 1, a scalar
 * or enum 0, a connection 2 plus `first` times its selection; a mutation field 10.
 */
function queryCost(document: ReturnType<typeof parse>, variables: Record<string, unknown>): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const argNumber = (field: FieldNode, name: string): number | undefined => {
    const arg = field.arguments?.find((item) => item.name.value === name);
    if (!arg) return undefined;
    if (arg.value.kind === Kind.INT) return Number(arg.value.value);
    if (arg.value.kind === Kind.VARIABLE) {
      const value = Number(variables[arg.value.name.value]);
      return Number.isFinite(value) ? value : undefined;
    }
    return undefined;
  };
  const cost = (set: SelectionSetNode | undefined): number => {
    if (!set) return 0;
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.selectionSet) continue;
        const first = argNumber(selection, "first");
        total +=
          first !== undefined
            ? 2 + first * connectionItemCost(selection.selectionSet)
            : 1 + cost(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += cost(selection.selectionSet);
      } else {
        total += cost(fragments.get(selection.name.value)?.selectionSet);
      }
    }
    return total;
  };
  // A connection's edges/nodes hold one item each; pageInfo is free.
  const connectionItemCost = (set: SelectionSetNode): number => {
    let item = 0;
    for (const selection of set.selections) {
      if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
      const name = selection.name.value;
      if (name === "nodes") item = Math.max(item, 1 + cost(selection.selectionSet) - 0);
      if (name === "edges") {
        const node = selection.selectionSet.selections.find(
          (inner): inner is FieldNode => inner.kind === Kind.FIELD && inner.name.value === "node",
        );
        item = Math.max(item, 1 + cost(node?.selectionSet));
      }
    }
    return item;
  };
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const operation = definition as OperationDefinitionNode;
    total +=
      operation.operation === "mutation" ? 10 * operation.selectionSet.selections.length : cost(operation.selectionSet);
  }
  return Math.max(1, total);
}

/** A 16×16 PNG of one colour derived from `name` (so two files differ). */
function solidPng(name: string): Buffer {
  const size = 16;
  const hash = createHmac("sha256", "colour").update(name).digest();
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: size }, () => hash.subarray(0, 3))]);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}
