import { describe, expect, it } from "@jest/globals";
import { resolveUser } from "../src/domain/caller";
import {
  allocate,
  applyEntry,
  balanceOf,
  creditsAt,
  creditsOf,
  decideDebit,
  decideDebitOn,
  EMPTY_BALANCE,
  expiryAfter,
  grantStates,
  type LedgerEntry,
  outOfCreditsCode,
} from "../src/domain/ledger";

const now = new Date("2026-06-15T12:00:00Z");
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day);

let seq = 0;
const grant = (id: string, amount: number, expiresAt: Date | null): LedgerEntry => ({
  id,
  seq: ++seq,
  kind: "grant",
  amount,
  expiresAt,
  allocations: [],
});
const debit = (id: string, allocations: LedgerEntry["allocations"]): LedgerEntry => ({
  id,
  seq: ++seq,
  kind: "debit",
  amount: allocations.reduce((sum, a) => sum + a.amount, 0),
  expiresAt: null,
  allocations,
});
const refundOf = (entry: LedgerEntry): LedgerEntry => ({ ...entry, id: `r-${entry.id}`, seq: ++seq, kind: "refund" });

describe("creditsAt", () => {
  it("is zero with no expiry for an empty ledger", () => {
    expect(creditsAt([], now)).toEqual({ credits: 0, expiresAt: null, lastSeq: 0 });
  });

  it("sums live grants minus debits plus refunds", () => {
    const g = grant("g", 100, at(30));
    const d1 = debit("d1", [{ grantId: "g", amount: 30 }]);
    const d2 = debit("d2", [{ grantId: "g", amount: 5 }]);
    const entries = [g, d1, d2, refundOf(d1)];
    expect(creditsAt(entries, now)).toEqual({ credits: 95, expiresAt: at(30), lastSeq: d2.seq + 1 });
  });

  it("stops counting a grant at its expiry, and reports the earliest expiry of a grant with credits", () => {
    const soon = grant("soon", 10, at(1));
    const later = grant("later", 20, at(10));
    const never = grant("never", 5, null);
    const spentSoon = debit("d", [{ grantId: "soon", amount: 10 }]);
    expect(creditsAt([soon, later, never], now)).toMatchObject({ credits: 35, expiresAt: at(1) });
    // A fully spent grant does not set the expiry.
    expect(creditsAt([soon, later, never, spentSoon], now)).toMatchObject({ credits: 25, expiresAt: at(10) });
    // At the expiry instant the grant is gone.
    expect(creditsAt([soon, later, never], at(1))).toMatchObject({ credits: 25, expiresAt: at(10) });
    expect(creditsAt([soon, later, never], at(11))).toMatchObject({ credits: 5, expiresAt: null });
  });

  it("keeps refunded credits of an expired grant expired", () => {
    const g = grant("g", 10, at(1));
    const d = debit("d", [{ grantId: "g", amount: 4 }]);
    expect(creditsAt([g, d, refundOf(d)], at(2)).credits).toBe(0);
    expect(grantStates([g, d, refundOf(d)])[0]?.remaining).toBe(10);
  });
});

describe("allocate (FIFO by expiry)", () => {
  it("spends the grant that expires first, then the next, never-expiring grants last", () => {
    const never = grant("never", 50, null);
    const late = grant("late", 10, at(20));
    const early = grant("early", 10, at(2));
    expect(allocate([never, late, early], 25, now)).toEqual([
      { grantId: "early", amount: 10 },
      { grantId: "late", amount: 10 },
      { grantId: "never", amount: 5 },
    ]);
  });

  it("skips spent and expired grants and returns null when short", () => {
    const expired = grant("expired", 100, at(-1));
    const g = grant("g", 10, at(5));
    const d = debit("d", [{ grantId: "g", amount: 8 }]);
    expect(allocate([expired, g, d], 2, now)).toEqual([{ grantId: "g", amount: 2 }]);
    expect(allocate([expired, g, d], 3, now)).toBeNull();
  });

  it("allocates nothing for a zero debit, even on an empty ledger", () => {
    expect(allocate([], 0, now)).toEqual([]);
  });
});

describe("decideDebit", () => {
  it("takes the next seq and reports the balance after", () => {
    const g = grant("g", 3, at(5));
    expect(decideDebit([g], 2, "free", now)).toEqual({
      ok: true,
      allocations: [{ grantId: "g", amount: 2 }],
      seq: g.seq + 1,
      balance: 1,
      expiresAt: at(5),
    });
    expect(decideDebit([g], 3, "free", now)).toMatchObject({ ok: true, balance: 0, expiresAt: null });
  });

  it("asks a free user to subscribe and tells a paid user there are not enough credits", () => {
    const g = grant("g", 3, at(5));
    expect(decideDebit([g], 4, "free", now)).toEqual({ ok: false, code: "NEED_SUBSCRIPTION", balance: 3 });
    expect(decideDebit([g], 4, "pro", now)).toEqual({ ok: false, code: "NOT_ENOUGH_CREDITS", balance: 3 });
    expect(outOfCreditsCode("free")).toBe("NEED_SUBSCRIPTION");
    expect(outOfCreditsCode("business")).toBe("NOT_ENOUGH_CREDITS");
  });
});

describe("expiryAfter", () => {
  it("adds whole days", () => {
    expect(expiryAfter(now, 30)).toEqual(new Date("2026-07-15T12:00:00Z"));
  });
});

describe("resolveUser", () => {
  it("acts on the token's user, and refuses another user's id", () => {
    expect(resolveUser("u1", "")).toEqual({ userId: "u1" });
    expect(resolveUser("u1", "u1")).toEqual({ userId: "u1" });
    expect(resolveUser("u1", "u2")).toEqual({ error: "FORBIDDEN" });
  });

  it("lets a service call name the user, and needs one", () => {
    expect(resolveUser(undefined, "u2")).toEqual({ userId: "u2" });
    expect(resolveUser(undefined, "")).toEqual({ error: "UNAUTHENTICATED" });
  });
});

describe("the balance snapshot", () => {
  it("advanced entry by entry equals the balance of the whole ledger, and spends the same way", () => {
    const g1 = grant("s1", 10, at(5));
    const g2 = grant("s2", 20, null);
    const d1 = debit("sd1", [{ grantId: "s1", amount: 4 }]);
    const d2 = debit("sd2", [
      { grantId: "s1", amount: 6 },
      { grantId: "s2", amount: 3 },
    ]);
    const r2 = refundOf(d2);
    const ledger = [g1, g2, d1, d2, r2];
    const stepped = ledger.reduce((balance, entry) => applyEntry(balance, entry, now), EMPTY_BALANCE);
    expect(stepped).toEqual(balanceOf(ledger, now));
    expect(creditsOf(stepped, now)).toEqual(creditsAt(ledger, now));
    const onBalance = decideDebitOn(stepped, 8, "free", now);
    const onLedger = decideDebit(ledger, 8, "free", now);
    expect(onBalance).toEqual(onLedger);
  });

  it("applies expiry at read time and drops grants that had expired when it was written", () => {
    const soon = grant("x1", 5, at(1));
    const balance = applyEntry(EMPTY_BALANCE, soon, now);
    expect(creditsOf(balance, now).credits).toBe(5);
    expect(creditsOf(balance, at(2))).toMatchObject({ credits: 0, expiresAt: null });
    const later = applyEntry(balance, grant("x2", 3, null), at(2));
    expect(later.grants.map((g) => g.grantId)).toEqual(["x2"]);
    expect(decideDebitOn(later, 4, "free", at(2))).toMatchObject({ ok: false, code: "NEED_SUBSCRIPTION" });
  });
});
