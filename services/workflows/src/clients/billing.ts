import { appError, createServiceClient, describeError } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import type { CreditsPort } from "../domain/credits";

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
