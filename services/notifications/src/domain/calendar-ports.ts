// What the calendar area needs from outside itself, as ports (wired in main.ts).
import { appError, type Caller } from "@crafter/kit";

/** A craft as the calendar shows it. */
export interface CraftRef {
  craftId: string;
  /** The craft's name ("" while unnamed). */
  name: string;
  workflowName: string;
  projectId: string;
}

/** Reads a craft of the calling user (the workflows service, with the caller's token). */
export interface CraftSource {
  /** @returns the craft, or null when it is not the caller's or does not exist. */
  craft(caller: Caller, craftId: string): Promise<CraftRef | null>;
}

/** A campaign's figures as the calendar shows them (fractions 0–1 of sent). */
export interface CampaignFigures {
  /** The email area's campaign status: draft, scheduled, sending, paused, sent, failed. */
  status: string;
  stats: { deliveryRate: number; bounceRate: number; openRate: number; clickRate: number };
}

/**
 * The email area's campaigns (docs/email-contract.md "In-process functions"), as the calendar sees
 * them: main.ts wires these to usecases/campaigns-calendar.ts's `campaignsForCalendar(deps, …)` and
 * `rescheduleCampaign(deps, …)`, so the calendar never imports the email area.
 */
export interface CampaignsPort {
  /** Status and rates of the user's campaigns; ids that are not the user's are absent. */
  campaignsForCalendar(input: { userId: string; campaignIds: string[] }): Promise<Map<string, CampaignFigures>>;
  /**
   * Reschedules a campaign (`at` ISO 8601) or unschedules it (`at` ""); publishes CampaignScheduled.
   * @throws the campaign's own errors (NOT_FOUND, CONFLICT when sending or sent, a past time).
   */
  rescheduleCampaign(input: { userId: string; campaignId: string; at: string }): Promise<unknown>;
}

/**
 * Campaigns for a calendar run without the email area (its tests): no figures (entries show
 * without rates), and a campaign cannot be moved from the calendar.
 */
export const unwiredCampaigns: CampaignsPort = {
  async campaignsForCalendar() {
    return new Map();
  },
  async rescheduleCampaign() {
    throw appError("UNAVAILABLE", "Campaigns cannot be moved from the calendar yet.");
  },
};
