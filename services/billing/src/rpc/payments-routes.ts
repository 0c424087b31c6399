import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { PaymentsService } from "@crafter/proto/crafter/billing/v1/payments_pb";
import type { BillingDeps } from "../deps";
import { callStripe } from "../stripe/client";
import { createCheckout } from "../usecases/create-checkout";
import { handleStripeWebhook } from "../usecases/handle-stripe-webhook";
import { listInvoices, listLedger } from "../usecases/list-history";
import { cancelSubscription, changePlan, createPortalSession, getSubscription } from "../usecases/manage-subscription";
import { completeTestCheckout, getTestCheckout } from "../usecases/test-checkout";

const ts = (date: Date | null) => (date ? timestampFromDate(date) : undefined);

/** crafter.billing.v1.PaymentsService: thin handlers over the payment use cases. */
export function paymentsRoutes(deps: BillingDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(PaymentsService, {
      async getSubscription(_req, ctx) {
        const view = await getSubscription(deps, callerOf(ctx));
        return { ...view, currentPeriodEnd: ts(view.currentPeriodEnd) };
      },
      async createCheckout(req, ctx) {
        return callStripe(() => createCheckout(deps, callerOf(ctx), req));
      },
      async getTestCheckout(req) {
        const { checkout, state } = await getTestCheckout(deps, { checkoutId: req.checkoutId });
        return {
          checkoutId: checkout._id,
          kind: checkout.kind,
          name: checkout.name,
          description: checkout.description,
          amount: BigInt(checkout.amount),
          currency: checkout.currency,
          interval: checkout.interval,
          state,
          expiresAt: ts(new Date(checkout.expiresAt)),
          successUrl: checkout.successUrl,
          cancelUrl: checkout.cancelUrl,
        };
      },
      async completeTestCheckout(req) {
        return callStripe(() => completeTestCheckout(deps, { checkoutId: req.checkoutId }));
      },
      async changePlan(req, ctx) {
        return callStripe(() => changePlan(deps, callerOf(ctx), { planKey: req.planKey }));
      },
      async cancelSubscription(req, ctx) {
        return callStripe(() => cancelSubscription(deps, callerOf(ctx), { resume: req.resume }));
      },
      async createPortalSession(req, ctx) {
        return callStripe(() => createPortalSession(deps, callerOf(ctx), { returnUrl: req.returnUrl }));
      },
      async handleStripeWebhook(req) {
        return handleStripeWebhook(deps, { payload: req.payload, signature: req.signature });
      },
      async listInvoices(req, ctx) {
        const { items, total } = await listInvoices(deps, callerOf(ctx), req);
        return {
          invoices: items.map((invoice) => ({
            ...invoice,
            amountPaid: BigInt(invoice.amountPaid),
            amountDue: BigInt(invoice.amountDue),
            createdAt: ts(invoice.createdAt),
          })),
          total,
        };
      },
      async listLedger(req, ctx) {
        const { items, total } = await listLedger(deps, callerOf(ctx), req);
        return {
          items: items.map((item) => ({ ...item, expiresAt: ts(item.expiresAt), createdAt: ts(item.createdAt) })),
          total,
        };
      },
    });
  };
}
