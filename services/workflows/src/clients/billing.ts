import { appError, createServiceClient, describeError, type ServiceCredentials } from "@crafter/kit";
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
 * The billing service as the workflows service's CreditsPort: calls with the workflows service
 * token that name the user (no user token needed, so it works from the engine's background work;
 * billing's access table allows Debit and Refund to service:workflows only).
 * @param baseUrl BILLING_URL, e.g. http://127.0.0.1:50056.
 * @param timeoutMs deadline of each call.
 * @param credentials the workflows service's credentials (ServiceContext.credentials).
 */
export function createBillingCredits(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): CreditsPort {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
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
