import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { kAccessToken, kUser } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import { debitCredits } from "../usecases/debit-credits";
import { getCredits } from "../usecases/get-credits";
import { refundDebit } from "../usecases/refund-debit";

/**
 * The contract's Caller of a call. Stands in for the kit's `callerOf` (services/kit/src/rpc/caller.ts,
 * shape branch) until it lands; same fields.
 */
function callerOf(ctx: HandlerContext): Caller {
  const user = ctx.values.get(kUser);
  return {
    userId: user?.userId ?? "",
    role: user?.role ?? "service",
    token: ctx.values.get(kAccessToken),
    signal: ctx.signal,
    service: undefined,
  };
}

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
    });
  };
}
