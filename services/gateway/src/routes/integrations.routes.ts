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
      }),
      response: z.object({
        location: z.string().meta({ description: "Where the browser goes: the Location header's path." }),
      }),
      // The envelope rides along with the redirect (every /api answer is the envelope); browsers follow Location.
      status: 302,
      handler: async ({ params, query, res }) => {
        const { location } = await clients.integrationsAsGateway.completeConnection({
          provider: PROVIDER.test(params.provider) ? params.provider : "",
          state: query.state ?? "",
          code: query.code ?? "",
          error: query.error ?? "",
        });
        // Relative to this origin only: the account service answers a path under /app.
        const path = location.startsWith("/app/") ? location : "/app/settings/integrations";
        res.setHeader("cache-control", "no-store");
        res.setHeader("location", path);
        return { location: path };
      },
    }),
  ];
}
