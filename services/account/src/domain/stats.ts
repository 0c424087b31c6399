/**
 * Admin's usage at a glance, as pure functions: facts (one per craft or ledger entry, from events)
 * and sign-up times folded into one row per UTC day.
 */

export type FactKind = "craft" | "credits_granted" | "credits_spent";

export interface Fact {
  kind: FactKind;
  /** Credits for the credit kinds, 1 for a craft. */
  amount: number;
  at: Date;
}

export interface DayRow {
  /** YYYY-MM-DD, UTC. */
  day: string;
  signups: number;
  crafts: number;
  creditsGranted: number;
  creditsSpent: number;
}

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The first instant of the window that ends today and spans `days` UTC days. */
export function windowStart(now: Date, days: number): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return start;
}

/** One row per day of the window, oldest first, zeros where nothing happened. */
export function dailySeries(now: Date, days: number, signups: readonly Date[], facts: readonly Fact[]): DayRow[] {
  const start = windowStart(now, days);
  const rows = new Map<string, DayRow>();
  for (let index = 0; index < days; index++) {
    const day = dayOf(new Date(start.getTime() + index * 86_400_000));
    rows.set(day, { day, signups: 0, crafts: 0, creditsGranted: 0, creditsSpent: 0 });
  }
  for (const at of signups) {
    const row = rows.get(dayOf(at));
    if (row) row.signups += 1;
  }
  for (const fact of facts) {
    const row = rows.get(dayOf(fact.at));
    if (!row) continue;
    if (fact.kind === "craft") row.crafts += fact.amount;
    else if (fact.kind === "credits_granted") row.creditsGranted += fact.amount;
    else row.creditsSpent += fact.amount;
  }
  return [...rows.values()];
}

/** The fact a CreditsChanged carries: grants count as granted, debits as spent, refunds as negative spending. */
export function creditFact(kind: string, delta: number, at: Date): Fact | null {
  if (kind === "grant") return { kind: "credits_granted", amount: Math.abs(delta), at };
  if (kind === "debit") return { kind: "credits_spent", amount: Math.abs(delta), at };
  if (kind === "refund") return { kind: "credits_spent", amount: -Math.abs(delta), at };
  return null;
}
