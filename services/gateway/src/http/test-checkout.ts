import type { Client } from "@connectrpc/connect";
import { describeError } from "@crafter/kit";
import type { PaymentsService } from "@crafter/proto/crafter/billing/v1/payments_pb";
import type { RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { type TestCheckoutPage, testCheckoutHtml, testCheckoutMissingHtml } from "../domain/test-checkout-html";

/** Checkout ids as billing makes them (`ck_` + base64url); anything else is not looked up. */
const CHECKOUT_ID = /^ck_[A-Za-z0-9_-]{16,64}$/;

/** Attempts per webhook delivery (Stripe retries for days; the buyer waits for these). */
const ATTEMPTS = 3;

export interface TestCheckoutDeps {
  /** Billing's payments with the gateway's service token. */
  payments: Client<typeof PaymentsService>;
  /** This gateway's own webhook endpoint, e.g. `http://127.0.0.1:8080/api/billing/webhook`. */
  webhookUrl: string;
  /** Where a dead checkout link sends the user. */
  home: string;
  logger: Logger;
}

function send(res: Response, status: number, html: string) {
  res.status(status).setHeader("cache-control", "no-store");
  res.type("html").send(html);
}

async function pageOf(deps: TestCheckoutDeps, checkoutId: string): Promise<TestCheckoutPage | null> {
  if (!CHECKOUT_ID.test(checkoutId)) return null;
  try {
    const view = await deps.payments.getTestCheckout({ checkoutId });
    return { ...view, amount: Number(view.amount) };
  } catch (error) {
    if (describeError(error).code === "NOT_FOUND") return null;
    throw error;
  }
}

function failed(deps: TestCheckoutDeps, res: Response, error: unknown) {
  deps.logger.warn({ err: error }, "test checkout unavailable");
  res.setHeader("retry-after", "5");
  res.status(503).type("text/plain").send("The checkout is unavailable for a moment. Please try again.");
}

/**
 * `GET /checkout/test/:id`: the local test checkout, which stands in for Stripe's hosted Checkout
 * where billing talks to a Stripe test API that hosts none (stripe-mock). No session: the
 * checkout id is the secret, as a hosted Checkout URL is. Unknown ids (and every id when billing
 * uses Stripe's hosted Checkout) answer 404.
 */
export function testCheckoutPage(deps: TestCheckoutDeps): RequestHandler {
  return async (req, res) => {
    try {
      const page = await pageOf(deps, String(req.params.id ?? ""));
      if (!page) return send(res, 404, testCheckoutMissingHtml(deps.home));
      send(res, 200, testCheckoutHtml(page));
    } catch (error) {
      failed(deps, res, error);
    }
  };
}

/**
 * `POST /checkout/test/:id` (the page's Pay form): billing pays the checkout and answers the
 * webhook events Stripe would send, signed; they are delivered in order to this gateway's webhook
 * endpoint, as Stripe delivers them, and the buyer is sent on to the success URL (303). A refused
 * payment (expired, already subscribed) shows the page again with the reason (409).
 */
export function testCheckoutPay(deps: TestCheckoutDeps): RequestHandler {
  return async (req, res) => {
    const checkoutId = String(req.params.id ?? "");
    try {
      const page = await pageOf(deps, checkoutId);
      if (!page) return send(res, 404, testCheckoutMissingHtml(deps.home));
      let paid: Awaited<ReturnType<typeof deps.payments.completeTestCheckout>>;
      try {
        paid = await deps.payments.completeTestCheckout({ checkoutId });
      } catch (error) {
        const described = describeError(error);
        if (described.code !== "CONFLICT") throw error;
        const now = (await pageOf(deps, checkoutId)) ?? page;
        return send(res, 409, testCheckoutHtml(now, described.message));
      }
      for (const delivery of paid.deliveries) await deliver(deps, delivery);
      res.setHeader("cache-control", "no-store");
      res.redirect(303, paid.successUrl);
    } catch (error) {
      failed(deps, res, error);
    }
  };
}

/**
 * One webhook delivery as Stripe makes it: the exact body, `Stripe-Signature`, JSON. A failed
 * attempt is retried twice within a second (the signature stays valid for 5 minutes). An event
 * still not accepted is logged, and paying again delivers it again (same event ids); until it
 * lands the app shows that it waits for the payment.
 */
async function deliver(deps: TestCheckoutDeps, delivery: { payload: string; signature: string }) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const response = await fetch(deps.webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "stripe-signature": delivery.signature,
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks); Crafter test checkout",
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      if (response.ok) return;
      deps.logger.warn({ status: response.status, attempt }, "test checkout webhook refused");
    } catch (error) {
      deps.logger.warn({ err: error, attempt }, "test checkout webhook not delivered");
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
}
