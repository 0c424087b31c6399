import { describeError } from "@crafter/kit";
import type { RequestHandler } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { fail } from "../http/envelope";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

// Email tracking (issue 13): SendGrid's signed event webhook (a registry route, raw body), and the
// open pixel and click redirect outside /api (tracking.ts handlers, mounted in app.ts).

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const tokenOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 4096) : "");

/**
 * GET /t/o/<token>.gif: records the open (once per delivery) and answers the pixel, whatever the
 * token (a tracking failure never shows a broken image).
 */
export function openPixel(clients: Pick<Clients, "campaignsAsGateway">): RequestHandler {
  return async (req, res) => {
    const token = tokenOf(req.params.file).replace(/\.gif$/, "");
    await clients.campaignsAsGateway.trackOpen({ token }).catch(() => undefined);
    res.setHeader("content-type", "image/gif");
    res.setHeader("cache-control", "no-store, max-age=0");
    res.status(200).end(PIXEL);
  };
}

/** GET /t/c/<token>: records the click and redirects (302) to the signed target; 404 for a token we did not sign. */
export function clickRedirect(clients: Pick<Clients, "campaignsAsGateway">): RequestHandler {
  return async (req, res) => {
    try {
      const { url } = await clients.campaignsAsGateway.trackClick({ token: tokenOf(req.params.token) });
      res.setHeader("cache-control", "no-store");
      res.redirect(302, url);
    } catch (error) {
      if (!res.headersSent) fail(res, describeError(error));
    }
  };
}

const sendgridEvents = z
  .array(z.looseObject({ event: z.string(), email: z.string().optional(), delivery_id: z.string().optional() }))
  .meta({ description: "SendGrid's JSON array of events; `delivery_id` is our custom argument." });

export function trackingRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/email/webhooks/sendgrid/{projectId}",
      tag: "email",
      summary:
        "A business's own SendGrid event webhook (Signed Event Webhook, ECDSA), set up when it connected its key",
      description:
        "Events posted by the business's own SendGrid account, verified with the public key SendGrid gave when Crafter turned the webhook's signing on (X-Twilio-Email-Event-Webhook-Signature over the timestamp header and the raw body; 403 when it does not verify, the timestamp is more than 10 minutes away, or the business has no SendGrid connection). Only the business's own deliveries are recorded, as on the platform's webhook.",
      auth: "public",
      signedBody: { limit: "1mb" },
      params: z.object({
        projectId: z
          .string()
          .min(1)
          .max(64)
          .regex(/^[\w-]+$/, "projectId is a project's id"),
      }),
      body: sendgridEvents,
      response: z.object({ processed: z.number() }),
      errors: ["FORBIDDEN"],
      handler: async ({ req, params, body }) => {
        const header = (name: string) => {
          const value = req.headers[name];
          return typeof value === "string" ? value.slice(0, 1024) : "";
        };
        const answer = await clients.campaignsAsGateway.handleSendgridEvents({
          payload: body as unknown as Buffer,
          signature: header("x-twilio-email-event-webhook-signature"),
          timestamp: header("x-twilio-email-event-webhook-timestamp"),
          projectId: params.projectId,
        });
        return { processed: answer.processed };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/email/webhooks/sendgrid",
      tag: "email",
      summary: "SendGrid's event webhook (Signed Event Webhook, ECDSA)",
      description:
        "Events posted by SendGrid, verified with X-Twilio-Email-Event-Webhook-Signature over the timestamp header and the raw body (403 when it does not verify). bounce and dropped set the contact's consent to bounced, spamreport to complained; delivered, open and click count toward the campaign's rates. Each event applies once.",
      auth: "public",
      signedBody: { limit: "1mb" },
      body: sendgridEvents,
      response: z.object({ processed: z.number() }),
      errors: ["FORBIDDEN"],
      handler: async ({ req, body }) => {
        const header = (name: string) => {
          const value = req.headers[name];
          return typeof value === "string" ? value.slice(0, 1024) : "";
        };
        const answer = await clients.campaignsAsGateway.handleSendgridEvents({
          payload: body as unknown as Buffer,
          signature: header("x-twilio-email-event-webhook-signature"),
          timestamp: header("x-twilio-email-event-webhook-timestamp"),
        });
        return { processed: answer.processed };
      },
    }),
  ];
}
