import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { appError, kUser } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { resolveUser } from "../domain/caller";
import { debitCredits } from "../usecases/debit-credits";
import type { BillingDeps } from "../usecases/deps";
import { getCredits } from "../usecases/get-credits";
import { refundDebit } from "../usecases/refund-debit";

/** The user a call acts on (see resolveUser); FORBIDDEN / UNAUTHENTICATED otherwise. */
function userOf(ctx: HandlerContext, requested: string): string {
  const resolved = resolveUser(ctx.values.get(kUser)?.userId, requested);
  if ("error" in resolved) throw appError(resolved.error);
  return resolved.userId;
}

/** crafter.billing.v1.BillingService. */
export function routes(deps: BillingDeps) {
  return (router: ConnectRouter): void => {
    router.service(BillingService, {
      async getCredits(req, ctx) {
        const view = await getCredits(deps, userOf(ctx, req.userId));
        return {
          credits: view.credits,
          expiresAt: view.expiresAt ? timestampFromDate(view.expiresAt) : undefined,
          plan: view.plan,
          isSubscribed: view.isSubscribed,
        };
      },
      async debit(req, ctx) {
        return debitCredits(deps, {
          userId: userOf(ctx, req.userId),
          amount: req.amount,
          reason: req.reason,
          craftId: req.craftId,
          idempotencyKey: req.idempotencyKey,
        });
      },
      async refund(req, ctx) {
        return refundDebit(deps, req.debitId, ctx.values.get(kUser)?.userId);
      },
    });
  };
}
