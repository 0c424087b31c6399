import type { ConsentStatus } from "./fields";

/** Contacts by consent (`total` is every contact counted; `subscribed` is who a campaign reaches). */
export interface ConsentCounts {
  total: number;
  subscribed: number;
  pending: number;
  unsubscribed: number;
  bounced: number;
  complained: number;
}

export const noConsentCounts = (): ConsentCounts => ({
  total: 0,
  subscribed: 0,
  pending: 0,
  unsubscribed: 0,
  bounced: 0,
  complained: 0,
});

/** Adds one contact of consent `status` to `counts` (in place); an unknown status counts as pending. */
export function tallyConsent(counts: ConsentCounts, status: ConsentStatus | string | undefined): ConsentCounts {
  counts.total++;
  switch (status) {
    case "subscribed":
    case "unsubscribed":
    case "bounced":
    case "complained":
      counts[status]++;
      break;
    default:
      counts.pending++;
  }
  return counts;
}

/** Counts `contacts` by their consent. */
export function countConsent(contacts: Iterable<{ consent?: string }>): ConsentCounts {
  const counts = noConsentCounts();
  for (const contact of contacts) tallyConsent(counts, contact.consent);
  return counts;
}

/** A pending contact is asked for permission at most once in this many milliseconds: 30 days. */
export const ASK_INTERVAL_MS = 30 * 24 * 3600 * 1000;

/**
 * The window of `at`: time cut into consecutive ASK_INTERVAL_MS windows since the epoch. An ask is
 * stored under `<contact id>:<window>`, so one window holds at most one ask per contact (a unique
 * `_id`, whoever inserts it), and an ask is made only when the previous window's is older than
 * ASK_INTERVAL_MS: together, at most one ask per contact per 30 days.
 */
export function askWindow(at: Date): number {
  return Math.floor(at.getTime() / ASK_INTERVAL_MS);
}

export const askId = (contactId: string, window: number) => `${contactId}:${window}`;

/**
 * The contacts asked within ASK_INTERVAL_MS before `now`, from the asks of the current and the
 * previous window (older windows cannot hold a recent one).
 */
export function recentlyAsked(asks: Iterable<{ contactId: string; at: Date }>, now: Date): Set<string> {
  const since = now.getTime() - ASK_INTERVAL_MS;
  const out = new Set<string>();
  for (const ask of asks) if (new Date(ask.at).getTime() > since) out.add(ask.contactId);
  return out;
}
