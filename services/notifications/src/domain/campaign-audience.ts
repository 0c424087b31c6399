/**
 * Who in a campaign's segment gets it, from each member's consent (pure): only subscribed contacts
 * with an email address are sent to, as campaign dispatch does; the others are counted by reason.
 */

/** Why a member of the segment does not get the campaign. */
export type ExclusionReason = "unsubscribed" | "pending" | "bounced" | "complained" | "no_email";

export interface AudienceCount {
  members: number;
  recipients: number;
  /** Non-zero counts only, largest first. */
  excluded: { reason: ExclusionReason; count: number }[];
}

const REASONS: ReadonlySet<string> = new Set(["unsubscribed", "pending", "bounced", "complained"]);

/** The reason a member is left out, or null when it gets the campaign. */
export function exclusionOf(member: { email: string; consent: string }): ExclusionReason | null {
  if (!member.email.trim()) return "no_email";
  if (member.consent === "subscribed") return null;
  // An unknown consent is treated as not yet given.
  return REASONS.has(member.consent) ? (member.consent as ExclusionReason) : "pending";
}

/** Adds one page of members to a running count (members counted once by contact id). */
export function countAudience(
  members: Iterable<{ contactId: string; email: string; consent: string }>,
  into: AudienceCount = { members: 0, recipients: 0, excluded: [] },
  seen: Set<string> = new Set(),
): AudienceCount {
  const byReason = new Map(into.excluded.map((e) => [e.reason, e.count]));
  let { members: total, recipients } = into;
  for (const member of members) {
    if (seen.has(member.contactId)) continue;
    seen.add(member.contactId);
    total++;
    const reason = exclusionOf(member);
    if (reason === null) recipients++;
    else byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const excluded = [...byReason.entries()]
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return { members: total, recipients, excluded };
}
