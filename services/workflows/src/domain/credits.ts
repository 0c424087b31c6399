/**
 * What the engine needs of billing (docs/engine-contract.md §4). Every generating path debits
 * `action.credits` before the work and refunds the debit when the work fails or is cancelled.
 * Implemented by src/clients/billing.ts (the billing service's Debit / Refund RPCs).
 */
export interface CreditsPort {
  /**
   * Takes `amount` credits from the user. Retrying with the same `idempotencyKey` debits once.
   * @throws ConnectError NEED_SUBSCRIPTION (free tier used up) or NOT_ENOUGH_CREDITS (paid tier).
   */
  debit(input: {
    userId: string;
    amount: number;
    /** Why, e.g. "BlogWriter/outline" or "BlogWriter/editor:shorten". */
    reason: string;
    craftId: string;
    idempotencyKey: string;
  }): Promise<{ debitId: string }>;
  /** Gives a debit back; refunding the same debit twice refunds once. */
  refund(debitId: string): Promise<void>;
}
