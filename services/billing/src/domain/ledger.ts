// The credit ledger as pure functions: balances, expiry and FIFO spending are computed from the
// user's append-only entries. The store keeps a snapshot of `Balance` per user (the grants with what
// is left of them, as of one seq) so reads need not replay the ledger; the entries stay the truth.

/** A grant adds credits, a debit spends them, a refund gives a debit's credits back. */
export type EntryKind = "grant" | "debit" | "refund";

/** Credits a debit took from one grant (a refund returns exactly these). */
export interface Allocation {
  grantId: string;
  amount: number;
}

/** One ledger entry as the domain needs it. */
export interface LedgerEntry {
  id: string;
  /** Position in the user's ledger, 1, 2, 3…; unique per user. */
  seq: number;
  kind: EntryKind;
  /** Whole credits, >= 0; the sign follows from `kind`. */
  amount: number;
  /** Grants only: when the grant's unspent credits stop counting; null = never. */
  expiresAt: Date | null;
  /** Debits and refunds: which grants the credits came from or go back to. */
  allocations: Allocation[];
}

/** A grant and what is left of it. */
export interface GrantState {
  grantId: string;
  seq: number;
  amount: number;
  remaining: number;
  expiresAt: Date | null;
}

/** What a user can spend at one moment. */
export interface Credits {
  /** Spendable credits: the unspent credits of grants that have not expired. */
  credits: number;
  /** Earliest expiry of a live grant that still has credits; null when none expires. */
  expiresAt: Date | null;
  /** Seq of the newest entry, 0 for an empty ledger; the next entry takes lastSeq + 1. */
  lastSeq: number;
}

const isLive = (grant: { expiresAt: Date | null }, now: Date) =>
  grant.expiresAt === null || grant.expiresAt.getTime() > now.getTime();

/** Every grant with its remaining credits (debits subtract their allocations, refunds add them back). */
export function grantStates(entries: readonly LedgerEntry[]): GrantState[] {
  const grants = new Map<string, GrantState>();
  for (const entry of entries) {
    if (entry.kind === "grant") {
      grants.set(entry.id, {
        grantId: entry.id,
        seq: entry.seq,
        amount: entry.amount,
        remaining: entry.amount,
        expiresAt: entry.expiresAt,
      });
    }
  }
  for (const entry of entries) {
    if (entry.kind === "grant") continue;
    const sign = entry.kind === "debit" ? -1 : 1;
    for (const allocation of entry.allocations) {
      const grant = grants.get(allocation.grantId);
      if (grant) grant.remaining += sign * allocation.amount;
    }
  }
  return [...grants.values()].sort((a, b) => a.seq - b.seq);
}

/** The spendable credits at `now` and the earliest expiry among live grants that still hold credits. */
export function creditsAt(entries: readonly LedgerEntry[], now: Date): Credits {
  let credits = 0;
  let expiresAt: Date | null = null;
  for (const grant of grantStates(entries)) {
    if (!isLive(grant, now) || grant.remaining <= 0) continue;
    credits += grant.remaining;
    if (grant.expiresAt && (!expiresAt || grant.expiresAt < expiresAt)) expiresAt = grant.expiresAt;
  }
  const lastSeq = entries.reduce((max, entry) => Math.max(max, entry.seq), 0);
  return { credits, expiresAt, lastSeq };
}

/**
 * Takes `amount` credits from live grants, the one expiring first first (grants that never expire
 * last; ties by age), so nothing expires that could have been spent.
 * @returns the allocations, or null when the live grants hold less than `amount`.
 */
export function allocate(entries: readonly LedgerEntry[], amount: number, now: Date): Allocation[] | null {
  const live = grantStates(entries)
    .filter((grant) => isLive(grant, now) && grant.remaining > 0)
    .sort((a, b) => {
      const ea = a.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
      const eb = b.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
      return ea === eb ? a.seq - b.seq : ea - eb;
    });
  const allocations: Allocation[] = [];
  let left = amount;
  for (const grant of live) {
    if (left === 0) break;
    const take = Math.min(left, grant.remaining);
    allocations.push({ grantId: grant.grantId, amount: take });
    left -= take;
  }
  return left === 0 ? allocations : null;
}

/** The plan a user is on. Only "free" exists until subscriptions are sold. */
export type Plan = string;
export const FREE_PLAN: Plan = "free";

export const isSubscribed = (plan: Plan): boolean => plan !== FREE_PLAN;

/** The spec's code when a debit finds too few credits: free users are asked to subscribe. */
export function outOfCreditsCode(plan: Plan): "NEED_SUBSCRIPTION" | "NOT_ENOUGH_CREDITS" {
  return isSubscribed(plan) ? "NOT_ENOUGH_CREDITS" : "NEED_SUBSCRIPTION";
}

export type DebitDecision =
  | { ok: true; allocations: Allocation[]; seq: number; balance: number; expiresAt: Date | null }
  | { ok: false; code: "NEED_SUBSCRIPTION" | "NOT_ENOUGH_CREDITS"; balance: number };

/**
 * Decides a debit of `amount` against the ledger as read: which grants pay, the seq the debit
 * entry takes, and the balance after it; or the out-of-credits code of the user's plan.
 */
export function decideDebit(entries: readonly LedgerEntry[], amount: number, plan: Plan, now: Date): DebitDecision {
  const before = creditsAt(entries, now);
  const allocations = allocate(entries, amount, now);
  if (!allocations) return { ok: false, code: outOfCreditsCode(plan), balance: before.credits };
  const debit: LedgerEntry = { id: "", seq: before.lastSeq + 1, kind: "debit", amount, expiresAt: null, allocations };
  const after = creditsAt([...entries, debit], now);
  return { ok: true, allocations, seq: debit.seq, balance: after.credits, expiresAt: after.expiresAt };
}

/** The free tier: credits every new user gets, and the days until they expire. */
export interface FreeTier {
  /** Credits given, >= 0. */
  credits: number;
  /** Days until the unspent credits expire. */
  days: number;
}

/** The unique ledger key of the free grant of a user (once per user). */
export const freeGrantKey = (userId: string) => `grant:free-tier:${userId}`;

/** When a grant given at `from` for `days` days expires. */
export function expiryAfter(from: Date, days: number): Date {
  return new Date(from.getTime() + days * 86_400_000);
}

/**
 * What a user's ledger adds up to as of entry `seq`: every grant that has not expired with what is
 * left of it. The store keeps one per user (its snapshot) and advances it with each entry.
 * Grants that had expired when the balance was computed are dropped: expiry is final, and a
 * refund into an expired grant stays expired.
 */
export interface Balance {
  /** Seq of the newest entry reflected; 0 for an empty ledger. */
  seq: number;
  grants: GrantState[];
}

export const EMPTY_BALANCE: Balance = { seq: 0, grants: [] };

/** The balance of a whole ledger (entries in any order) at `now`. */
export function balanceOf(entries: readonly LedgerEntry[], now: Date): Balance {
  const seq = entries.reduce((max, entry) => Math.max(max, entry.seq), 0);
  return { seq, grants: grantStates(entries).filter((grant) => isLive(grant, now)) };
}

/** The balance after `entry` (whose seq is balance.seq + 1), at `now`. */
export function applyEntry(balance: Balance, entry: LedgerEntry, now: Date): Balance {
  const grants = balance.grants.filter((grant) => isLive(grant, now)).map((grant) => ({ ...grant }));
  if (entry.kind === "grant") {
    grants.push({
      grantId: entry.id,
      seq: entry.seq,
      amount: entry.amount,
      remaining: entry.amount,
      expiresAt: entry.expiresAt,
    });
  } else {
    const sign = entry.kind === "debit" ? -1 : 1;
    for (const allocation of entry.allocations) {
      const grant = grants.find((g) => g.grantId === allocation.grantId);
      if (grant) grant.remaining += sign * allocation.amount;
    }
  }
  return { seq: Math.max(balance.seq, entry.seq), grants: grants.filter((grant) => isLive(grant, now)) };
}

/** Spendable credits of a balance at `now` (expiry is applied here, at read time). */
export function creditsOf(balance: Balance, now: Date): Credits {
  let credits = 0;
  let expiresAt: Date | null = null;
  for (const grant of balance.grants) {
    if (!isLive(grant, now) || grant.remaining <= 0) continue;
    credits += grant.remaining;
    if (grant.expiresAt && (!expiresAt || grant.expiresAt < expiresAt)) expiresAt = grant.expiresAt;
  }
  return { credits, expiresAt, lastSeq: balance.seq };
}

/** A balance's grants as grant entries with their spending folded in, for `allocate`/`decideDebit`. */
function asEntries(balance: Balance): LedgerEntry[] {
  return balance.grants.flatMap((grant) => {
    const spent = grant.amount - grant.remaining;
    const entries: LedgerEntry[] = [
      {
        id: grant.grantId,
        seq: grant.seq,
        kind: "grant",
        amount: grant.amount,
        expiresAt: grant.expiresAt,
        allocations: [],
      },
    ];
    if (spent !== 0)
      entries.push({
        id: "",
        seq: balance.seq,
        kind: spent > 0 ? "debit" : "refund",
        amount: Math.abs(spent),
        expiresAt: null,
        allocations: [{ grantId: grant.grantId, amount: Math.abs(spent) }],
      });
    return entries;
  });
}

/** `decideDebit` against a balance instead of the whole ledger. */
export function decideDebitOn(balance: Balance, amount: number, plan: Plan, now: Date): DebitDecision {
  const decision = decideDebit(asEntries(balance), amount, plan, now);
  return decision.ok ? { ...decision, seq: balance.seq + 1 } : decision;
}
