import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { ReferralsService } from "@crafter/proto/crafter/billing/v1/referrals_pb";
import type { BillingDeps } from "../deps";
import { getReferrals } from "../usecases/referrals";

/** crafter.billing.v1.ReferralsService: the caller's own referral code and counts. */
export function referralsRoutes(deps: BillingDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(ReferralsService, {
      getReferrals: async (_req, ctx) => getReferrals(deps, callerOf(ctx)),
    });
  };
}
