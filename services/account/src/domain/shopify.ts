/**
 * Shopify's per-shop grant and webhooks, as far as the account service reads them. Pure.
 * Shapes: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant
 * and https://shopify.dev/docs/apps/build/webhooks.
 */

/** The topics subscribed at install (`webhookSubscriptionCreate`); the privacy ones come from the app's configuration. */
export const SUBSCRIBED_TOPICS = [
  "APP_UNINSTALLED",
  "PRODUCTS_CREATE",
  "PRODUCTS_UPDATE",
  "PRODUCTS_DELETE",
  "CUSTOMERS_CREATE",
  "CUSTOMERS_UPDATE",
  "CUSTOMERS_DELETE",
] as const;

/** Every topic this app handles (`X-Shopify-Topic`). */
export const HANDLED_TOPICS = new Set([
  "app/uninstalled",
  "products/create",
  "products/update",
  "products/delete",
  "customers/create",
  "customers/update",
  "customers/delete",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
]);

/** What a webhook's body says that the services need: the resource's GraphQL id, a redacted customer's email and phone. */
export interface WebhookSubject {
  resourceGid: string;
  customerEmail: string;
  customerPhone: string;
}

const text = (value: unknown, max = 320) => (typeof value === "string" ? value.slice(0, max) : "");

/**
 * Reads a webhook's JSON body (REST-shaped: `{ id, admin_graphql_api_id, … }`; the privacy topics:
 * `{ shop_domain, customer: { id, email, phone } }`).
 * @returns null when the body is not a JSON object.
 */
export function webhookSubject(topic: string, body: Uint8Array): WebhookSubject | null {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    return null;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const data = json as Record<string, unknown>;
  const type = topic.startsWith("products/") ? "Product" : topic.startsWith("customers/") ? "Customer" : "";
  const customer = (typeof data.customer === "object" && data.customer ? data.customer : {}) as Record<string, unknown>;
  const idOf = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");
  let resourceGid = "";
  if (topic === "customers/redact" || topic === "customers/data_request") {
    const id = idOf(customer.id);
    resourceGid = /^\d{1,20}$/.test(id) ? `gid://shopify/Customer/${id}` : "";
  } else if (type) {
    const gid = text(data.admin_graphql_api_id, 100);
    const id = idOf(data.id);
    resourceGid = gid.startsWith(`gid://shopify/${type}/`)
      ? gid
      : /^\d{1,20}$/.test(id)
        ? `gid://shopify/${type}/${id}`
        : "";
  }
  return { resourceGid, customerEmail: text(customer.email), customerPhone: text(customer.phone, 40) };
}

/** Whether the granted scopes (Shopify: comma separated, `write_x` implying `read_x`) include every wanted one. */
export function grantsScopes(granted: string, wanted: readonly string[]): boolean {
  const have = new Set(granted.split(",").map((scope) => scope.trim()));
  return wanted.every((scope) => have.has(scope) || have.has(scope.replace(/^read_/, "write_")));
}
