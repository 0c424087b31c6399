import { appError, createServiceClient, describeError, type ErrorCode, type ServiceCredentials } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";

/** A plan's tier and its `profiles` limit (contacts alive in all the user's projects). */
export interface ProfileLimit {
  tier: "free" | "core" | "pro";
  limit: number;
}

/** Where the contacts service learns a user's profile limit (billing's GetPlan, docs/second-half-contract.md). */
export interface PlanSource {
  profileLimit(userId: string, signal?: AbortSignal): Promise<ProfileLimit>;
}

/** The contract's `LIMITS[tier].profiles`: free 250, core 1,000, pro 5,000 (billing's answer wins). */
export const PROFILE_LIMITS = { free: 250, core: 1000, pro: 5000 } as const;

/** The upgrade scenario of a reached profile limit: free → FREE_USER_LIMIT (suggests Core), core → CORE_CONTACTS_LIMIT (Pro). */
export function limitScenario(tier: ProfileLimit["tier"]): ErrorCode {
  return tier === "free" ? "FREE_USER_LIMIT" : tier === "core" ? "CORE_CONTACTS_LIMIT" : "PLAN_LIMIT_REACHED";
}

const tierOf = (tier: string): ProfileLimit["tier"] => (tier === "core" || tier === "pro" ? tier : "free");

/**
 * Billing's GetPlan with the contacts service's token, naming the user (billing's access table
 * allows `service:contacts`). A billing failure is re-thrown in the catalogue's terms (UNAVAILABLE
 * when billing is down): no contact is created against an unknown limit.
 */
export function createBillingPlans(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): PlanSource {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async profileLimit(userId, signal) {
      const plan = await client.getPlan({ userId }, { signal }).catch((error: unknown) => {
        const described = describeError(error);
        throw appError(described.code, described.code === "InternalServerError" ? undefined : described.message);
      });
      const tier = tierOf(plan.tier);
      return { tier, limit: plan.limits?.profiles ?? PROFILE_LIMITS[tier] };
    },
  };
}
