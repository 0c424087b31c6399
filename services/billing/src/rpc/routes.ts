import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import type { BillingDeps } from "../deps";
import { adminGrantCredits } from "../usecases/admin-grant-credits";
import { debitCredits } from "../usecases/debit-credits";
import { getCredits } from "../usecases/get-credits";
import { refundDebit } from "../usecases/refund-debit";

/** crafter.billing.v1.BillingService: thin handlers over the use cases. */
export function routes(deps: BillingDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(BillingService, {
      async getCredits(req, ctx) {
        const view = await getCredits(deps, callerOf(ctx), { userId: req.userId });
        return {
          credits: view.credits,
          expiresAt: view.expiresAt ? timestampFromDate(view.expiresAt) : undefined,
          plan: view.plan,
          isSubscribed: view.isSubscribed,
        };
      },
      async debit(req, ctx) {
        return debitCredits(deps, callerOf(ctx), {
          userId: req.userId,
          amount: req.amount,
          reason: req.reason,
          craftId: req.craftId,
          idempotencyKey: req.idempotencyKey,
        });
      },
      async refund(req, ctx) {
        return refundDebit(deps, callerOf(ctx), { debitId: req.debitId });
      },
      async grantCredits(req) {
        return adminGrantCredits(deps, req);
      },
    });
  };
}
