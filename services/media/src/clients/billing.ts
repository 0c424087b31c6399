import { appError, createServiceClient, describeError, type ServiceCredentials } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import type { CreditsPort, UsagePort } from "../deps";

/** Re-throws a billing failure in the catalogue's terms (NOT_ENOUGH_CREDITS, NEED_SUBSCRIPTION…). */
function upstream(error: unknown): never {
  const described = describeError(error);
  throw appError(
    described.code,
    described.code === "InternalServerError" ? undefined : described.message,
    described.fields,
  );
}

/**
 * Billing's Debit/Refund with the media service's token, naming the user (billing's access table
 * allows them to service:media).
 */
export function createBillingCredits(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): CreditsPort {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async debit({ userId, amount, reason, idempotencyKey }) {
      const response = await client.debit({ userId, amount, reason, craftId: "", idempotencyKey }).catch(upstream);
      return { debitId: response.debitId };
    },
    async refund(debitId) {
      await client.refund({ debitId }).catch(upstream);
    },
  };
}

/**
 * Billing's ReserveUsage/ReleaseUsage (monthly AI images and voice minutes) with the media
 * service's token. Over the limit, billing throws the plan's scenario code (402), re-thrown as it is.
 */
export function createBillingUsage(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): UsagePort {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async reserve({ userId, counter, amount, key }) {
      await client.reserveUsage({ userId, counter, amount, key }).catch(upstream);
    },
    async release({ userId, counter, key }) {
      await client.releaseUsage({ userId, counter, key }).catch(upstream);
    },
  };
}
