import type { ErrorCode } from "@crafter/kit";

/** A plan's tier and its `profiles` limit (contacts alive in all the user's projects). */
export interface ProfileLimit {
  tier: "free" | "core" | "pro";
  limit: number;
}

/** Where the contacts service learns a user's profile limit (billing's GetPlan, docs/second-half-contract.md). */
export interface PlanSource {
  profileLimit(userId: string, signal?: AbortSignal): Promise<ProfileLimit>;
}

/** The contract's `LIMITS[tier].profiles`: free 250, core 1,000, pro 5,000. */
export const PROFILE_LIMITS = { free: 250, core: 1000, pro: 5000 } as const;

/** The upgrade scenario of a reached profile limit: free → FREE_USER_LIMIT (suggests Core), core → CORE_CONTACTS_LIMIT (Pro). */
export function limitScenario(tier: ProfileLimit["tier"]): ErrorCode {
  return tier === "free" ? "FREE_USER_LIMIT" : tier === "core" ? "CORE_CONTACTS_LIMIT" : "PLAN_LIMIT_REACHED";
}

/**
 * Until billing's GetPlan is on main: every user is on the free tier (a user without an active
 * subscription is, per the contract). Replaced by the GetPlan client at the merge.
 */
export const freeTierPlans: PlanSource = {
  async profileLimit() {
    return { tier: "free", limit: PROFILE_LIMITS.free };
  },
};
