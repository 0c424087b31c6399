import { createServiceClient, type ServiceCredentials } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";

/** What the admin use cases need of billing: a grant through its ledger, and the MRR series. */
export interface CreditGrants {
  /** Idempotent by `idempotencyKey`; `granted: false` when the key had granted before. */
  grant(input: {
    userId: string;
    amount: number;
    reason: string;
    idempotencyKey: string;
    grantedBy: string;
  }): Promise<{ balance: number; granted: boolean }>;
  /** MRR in US cents at the end of each UTC day ("YYYY-MM-DD"), billing's GetRevenue (Admin's charts). */
  revenue(days: string[]): Promise<Map<string, number>>;
}

/** Billing's GrantCredits and GetRevenue with the account service's own token (billing admits only account). */
export function createCreditGrants(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): CreditGrants {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async grant(input) {
      const response = await client.grantCredits({ ...input, expiresInDays: 0 });
      return { balance: response.balance, granted: response.granted };
    },
    async revenue(days) {
      const response = await client.getRevenue({ days });
      return new Map(response.days.map((day) => [day.day, Number(day.mrrCents)]));
    },
  };
}
