import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { text } from "../http/rest-bindings";
import type { RouteDeps } from "./deps";

// A project's sender identity and sending domains (notifications' SendersService): Settings →
// Sender, for the project's owner and its project admins. Those routes are generated from
// senders.proto (routes/gen); the link's landing, called without a session, is written here.

/** POST /api/email/sender/confirm: the from address's emailed link, with the gateway's own token. */
export function sendersRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/email/sender/confirm",
      summary: "Confirm a from address with the token of its emailed link (signed, expiring, single use)",
      tag: "Email sender",
      auth: "public",
      body: z.object({ token: text("token", 2048).min(1, "token is required") }),
      response: z.object({ address: z.string() }),
      handler: async ({ body }) => ({
        address: (await clients.sendersAsGateway.confirmSenderAddress({ token: body.token })).address,
      }),
    }),
  ];
}
