import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import type { BillingDeps } from "../deps";
import { adminGrantCredits } from "../usecases/admin-grant-credits";
import { debitCredits } from "../usecases/debit-credits";
import { getCredits } from "../usecases/get-credits";
import { getPlan } from "../usecases/get-plan";
import { getRevenue } from "../usecases/get-revenue";
import { refundDebit } from "../usecases/refund-debit";
import { releaseUsage } from "../usecases/release-usage";
import { reserveUsage } from "../usecases/reserve-usage";
import { paymentsRoutes } from "./payments-routes";
import { referralsRoutes } from "./referrals-routes";

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
      async getPlan(req, ctx) {
        const plan = await getPlan(deps, callerOf(ctx), { userId: req.userId });
        return {
          tier: plan.tier,
          planKey: plan.planKey,
          limits: {
            profiles: plan.limits.profiles,
            emails: plan.limits.emails,
            aiImages: plan.limits.ai_images,
            voiceMinutes: plan.limits.voice_minutes,
          },
          used: {
            profiles: plan.used.profiles,
            emails: plan.used.emails,
            aiImages: plan.used.ai_images,
            voiceMinutes: plan.used.voice_minutes,
          },
          status: plan.status,
          currentPeriodEnd: plan.currentPeriodEnd ? timestampFromDate(plan.currentPeriodEnd) : undefined,
        };
      },
      async reserveUsage(req, ctx) {
        return reserveUsage(deps, callerOf(ctx), {
          userId: req.userId,
          counter: req.counter,
          amount: req.amount,
          key: req.key,
        });
      },
      async releaseUsage(req, ctx) {
        return releaseUsage(deps, callerOf(ctx), { userId: req.userId, counter: req.counter, key: req.key });
      },
      async grantCredits(req) {
        return adminGrantCredits(deps, req);
      },
      async getRevenue(req) {
        const days = await getRevenue(deps, req);
        return { days: days.map((day) => ({ day: day.day, mrrCents: BigInt(day.mrrCents) })) };
      },
    });
    paymentsRoutes(deps)(router);
    referralsRoutes(deps)(router);
  };
}
