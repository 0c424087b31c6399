import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import type { InvoiceRecord } from "../domain/stripe-webhook";

export interface PageInput {
  /** 1-based; values below 1 read as 1. */
  page: number;
  /** 1 to 100 (default 20). */
  pageSize: number;
}

const pageOf = ({ page, pageSize }: PageInput) => ({
  page: Math.max(1, Math.floor(page) || 1),
  pageSize: Math.min(100, Math.max(1, Math.floor(pageSize) || 20)),
});

/** A page of the caller's invoices (payment history), newest first, with the total. */
export async function listInvoices(
  deps: BillingDeps,
  caller: Caller,
  input: PageInput,
): Promise<{ items: InvoiceRecord[]; total: number }> {
  const { page, pageSize } = pageOf(input);
  return deps.stores.payments.listInvoices(caller.userId, page, pageSize);
}

export interface LedgerItem {
  id: string;
  kind: string;
  /** + for grants and refunds, - for debits. */
  delta: number;
  source: string;
  reason: string;
  balanceAfter: number;
  expiresAt: Date | null;
  createdAt: Date;
}

/**
 * A page of the caller's credit ledger, newest first. Seqs run 1…n without gaps, so a page is a
 * seq range: the balance snapshot gives n (the total) and one query reads the page.
 */
export async function listLedger(
  deps: BillingDeps,
  caller: Caller,
  input: PageInput,
): Promise<{ items: LedgerItem[]; total: number }> {
  const { page, pageSize } = pageOf(input);
  const total = (await deps.stores.ledger.balance(caller.userId, deps.now())).seq;
  const to = total - (page - 1) * pageSize;
  if (to <= 0) return { items: [], total };
  const entries = await deps.stores.ledger.between(caller.userId, Math.max(0, to - pageSize), to);
  return {
    items: entries.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      delta: entry.kind === "debit" ? -entry.amount : entry.amount,
      source: entry.source,
      reason: entry.reason,
      balanceAfter: entry.balanceAfter,
      expiresAt: entry.expiresAt,
      createdAt: entry.createdAt,
    })),
    total,
  };
}
