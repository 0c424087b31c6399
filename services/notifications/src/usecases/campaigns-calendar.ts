import type { Caller } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import type { Stats } from "../domain/campaign-rules";
import type { CampaignStatus } from "../store/campaigns.repository";
import { type CampaignView, scheduleCampaign, statsOfCampaign } from "./campaigns";

type Deps = Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;

/**
 * The status and figures of a user's campaigns for the calendar's entries (at most 500 ids; ids that
 * are not the user's campaigns, or were deleted, are absent from the map).
 */
export async function campaignsForCalendar(
  deps: Deps,
  input: { userId: string; campaignIds: string[] },
): Promise<Map<string, { status: CampaignStatus; stats: Stats }>> {
  const ids = [...new Set(input.campaignIds)].filter((id) => id.length <= 64).slice(0, 500);
  const campaigns = ids.length === 0 ? [] : await deps.stores.campaigns.byIds(input.userId, ids);
  const entries = await Promise.all(
    campaigns.map(async (c) => [c._id, { status: c.status, stats: await statsOfCampaign(deps, c) }] as const),
  );
  return new Map(entries);
}

/**
 * Moves a campaign on the calendar: `at` (ISO 8601, future) reschedules it, "" unschedules it.
 * Publishes CampaignScheduled.
 * @throws NOT_FOUND, CONFLICT (already sending or sent), CR_ERR_BAD_REQUEST (a past time, a campaign not ready).
 */
export async function rescheduleCampaign(
  deps: Deps & Pick<NotificationsDeps, "zones">,
  input: { userId: string; campaignId: string; at: string },
): Promise<CampaignView> {
  const caller: Caller = {
    userId: input.userId,
    role: "service",
    token: undefined,
    signal: new AbortController().signal,
    service: "notifications",
  };
  return scheduleCampaign(deps, caller, { campaignId: input.campaignId, at: input.at });
}
