import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { text } from "../http/rest-bindings";
import type { RouteDeps } from "./deps";

// Integrations' connections (the account service's IntegrationsService). Listing, starting and
// disconnecting are generated from integrations.proto (routes/gen); the provider's OAuth callback,
// which redirects the browser, is written here.

const PROVIDER = /^[a-z_]{1,32}$/;

/**
 * GET /api/integrations/{provider}/callback: where the provider sends the browser back (RFC 6749
 * section 4.1.2). No session needed: the signed, single-use state names the project and who
 * started; the account service answers where to go, and this redirects there.
 */
export function integrationsRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/integrations/{provider}/callback",
      tag: "Integrations",
      summary: "The provider's OAuth 2.0 callback: finishes connecting and redirects to Settings › Integrations",
      description:
        "Redirects (302) to the return path with ?connected=<provider>, or with ?error=<code> (invalid_state: altered, expired or used; access_denied; invalid_grant; provider_unreachable; not_configured).",
      auth: "public",
      params: z.object({ provider: text("provider", 32).min(1, "provider is required") }),
      query: z.object({
        code: text("code", 2048).optional(),
        state: text("state", 2048).optional(),
        error: text("error", 100).optional(),
        error_description: text("error_description", 1000).optional(),
        hmac: text("hmac", 128).optional().meta({ description: "Shopify: HMAC-SHA256 (hex) of the other parameters." }),
        shop: text("shop", 255).optional().meta({ description: "Shopify: the store's myshopify domain." }),
        host: text("host", 512).optional().meta({ description: "Shopify: the store's admin host, base64." }),
        timestamp: text("timestamp", 20).optional().meta({ description: "Shopify: when the callback was signed." }),
      }),
      response: z.object({
        location: z.string().meta({ description: "Where the browser goes: the Location header's path." }),
      }),
      // The envelope rides along with the redirect (every /api answer is the envelope); browsers follow Location.
      status: 302,
      handler: async ({ params, query, req, res }) => {
        const at = req.originalUrl.indexOf("?");
        const { location } = await clients.integrationsAsGateway.completeConnection({
          provider: PROVIDER.test(params.provider) ? params.provider : "",
          state: query.state ?? "",
          code: query.code ?? "",
          error: query.error ?? "",
          // Shopify signs every parameter of the query, including any this route does not name.
          rawQuery: at >= 0 ? req.originalUrl.slice(at + 1, at + 1 + 8192) : "",
        });
        // Relative to this origin only: the account service answers a path under /app.
        const path = location.startsWith("/app/") ? location : "/app/settings/integrations";
        res.setHeader("cache-control", "no-store");
        res.setHeader("location", path);
        return { location: path };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/integrations/shopify/webhooks",
      tag: "Integrations",
      summary: "Shopify's webhooks (signed with X-Shopify-Hmac-Sha256)",
      description:
        "Products and customers created, updated and deleted, app/uninstalled, and the privacy webhooks (customers/data_request, customers/redact, shop/redact). The signature over the raw body is checked by the account service: a bad or missing one is 401. Answered at once (the work is done afterwards); a redelivery (same X-Shopify-Webhook-Id) changes nothing.",
      auth: "public",
      signedBody: { limit: "512kb" },
      body: z.looseObject({}).meta({ description: "The topic's payload, as Shopify sends it." }),
      response: z.object({
        first: z.boolean().meta({ description: "false: this webhook id was received before; nothing was done again." }),
      }),
      errors: ["UNAUTHENTICATED"],
      handler: async ({ req, body }) => {
        const header = (name: string) => {
          const value = req.headers[name];
          return typeof value === "string" ? value.slice(0, 255) : "";
        };
        return clients.integrationsAsGateway.receiveShopifyWebhook({
          topic: header("x-shopify-topic"),
          shopDomain: header("x-shopify-shop-domain"),
          webhookId: header("x-shopify-webhook-id"),
          eventId: header("x-shopify-event-id"),
          hmac: header("x-shopify-hmac-sha256"),
          body: body as unknown as Buffer,
        });
      },
    }),
  ];
}
