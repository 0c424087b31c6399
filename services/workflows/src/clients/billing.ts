import { appError, createServiceClient, describeError } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";

/** A debit request: whole credits taken for one piece of work of `userId`. */
export interface DebitRequest {
  userId: string;
  /** Whole credits, >= 0. */
  amount: number;
  /** Why, for the ledger, e.g. "generation:blog-writer:outline". */
  reason: string;
  craftId: string;
  /** Unique per piece of work; a retry with the same key returns the same debit. */
  idempotencyKey: string;
}

/**
 * How the engine spends credits (docs/engine-contract.md section 4): debit before the work,
 * refund when it fails or is cancelled.
 */
export interface CreditsPort {
  /**
   * @throws the spec's NEED_SUBSCRIPTION (free plan) or NOT_ENOUGH_CREDITS (paid plan) when the
   *   user's credits are short; other billing failures keep their code (InternalServerError when
   *   billing is unreachable).
   */
  debit(request: DebitRequest): Promise<{ debitId: string }>;
  /** Gives a debit back; exactly once however often it is called. */
  refund(debitId: string): Promise<void>;
}

/** Re-throws a billing failure in the spec's terms, never as a raw upstream error. */
function upstream(error: unknown): never {
  const described = describeError(error);
  throw appError(
    described.code,
    described.code === "InternalServerError" ? undefined : described.message,
    described.fields,
  );
}

/**
 * The billing service as the workflows service's CreditsPort: a service call that names the
 * user (no user token needed, so it works from the engine's background work).
 * @param baseUrl BILLING_URL, e.g. http://127.0.0.1:50056.
 * @param timeoutMs deadline of each call.
 */
export function createBillingCredits(baseUrl: string, timeoutMs: number): CreditsPort {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs });
  return {
    async debit({ userId, amount, reason, craftId, idempotencyKey }) {
      const response = await client
        .debit({ userId, amount, reason, craftId, idempotencyKey })
        .catch((error) => upstream(error));
      return { debitId: response.debitId };
    },
    async refund(debitId) {
      await client.refund({ debitId }).catch((error) => upstream(error));
    },
  };
}
