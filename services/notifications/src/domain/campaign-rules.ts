/**
 * Campaign rules: which states change, who gets which subject in an A/B test, the winner, and the
 * rates. Pure.
 */
import { createHash } from "node:crypto";

export type Status = "draft" | "scheduled" | "sending" | "paused" | "sent" | "failed";

/** Drafts and scheduled campaigns may be edited, deleted, sent or (re)scheduled. */
export const EDITABLE: readonly Status[] = ["draft", "scheduled"];

/** A number 0–99 fixed per (campaign, contact): who is in an A/B test's share, and in which half. */
function bucket(campaignId: string, contactId: string): number {
  return createHash("sha256").update(`${campaignId}:${contactId}`).digest().readUInt32BE(0) % 10_000;
}

/**
 * The variant of a recipient: with an A/B test on `share` percent, that share is split evenly
 * between subjects a and b; everyone else is `main` (sent the winner's subject once it is chosen).
 */
export function variantOf(campaignId: string, contactId: string, share: number | null): "main" | "a" | "b" {
  if (share === null) return "main";
  const value = bucket(campaignId, contactId);
  if (value >= share * 100) return "main";
  return value % 2 === 0 ? "a" : "b";
}

/** The winning subject: the higher open rate (opens / sent), then clicks; a tie goes to a. */
export function chooseWinner(
  a: { sent: number; opened: number; clicked: number },
  b: { sent: number; opened: number; clicked: number },
): "a" | "b" {
  const rate = (x: number, of: number) => (of > 0 ? x / of : 0);
  const openA = rate(a.opened, a.sent);
  const openB = rate(b.opened, b.sent);
  if (openB > openA) return "b";
  if (openA > openB) return "a";
  return rate(b.clicked, b.sent) > rate(a.clicked, a.sent) ? "b" : "a";
}

export interface Counts {
  recipients: number;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  opened: number;
  clicked: number;
  failed: number;
  skipped: number;
  /** Recipients sent the email again after an attempt that expired without an outcome. */
  possibleDuplicates: number;
}

export interface Stats extends Counts {
  deliveryRate: number;
  bounceRate: number;
  openRate: number;
  clickRate: number;
}

/**
 * Rates as 0–1 fractions of `sent`. Delivered is what the provider confirmed, or, without delivery
 * events (SMTP), every sent email that did not bounce.
 */
export function statsOf(counts: Counts): Stats {
  const delivered = Math.max(counts.delivered, counts.sent - counts.bounced);
  const of = (n: number) => (counts.sent > 0 ? Math.round((n / counts.sent) * 10_000) / 10_000 : 0);
  return {
    ...counts,
    delivered,
    deliveryRate: of(delivered),
    bounceRate: of(counts.bounced),
    openRate: of(counts.opened),
    clickRate: of(counts.clicked),
  };
}

/** Why a campaign is not sent or scheduled while the business profile has no postal address (CAN-SPAM). */
export const MISSING_ADDRESS =
  "Add your business's postal address to the business profile: every marketing email must carry it";

/** Validation messages of a campaign that is about to be sent or scheduled (empty: ready). */
export function readinessErrors(campaign: {
  name: string;
  segmentId: string;
  subject: string;
  html: string;
  abTest: { subjectB: string } | null;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!campaign.segmentId) errors.segmentId = "Choose a segment";
  if (!campaign.subject.trim()) errors.subject = "Subject is required";
  if (!campaign.html.trim()) errors.html = "The email has no content";
  if (campaign.abTest && !campaign.abTest.subjectB.trim()) errors["abTest.subjectB"] = "Subject B is required";
  return errors;
}
