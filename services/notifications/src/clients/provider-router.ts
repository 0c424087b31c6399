import { createServiceClient, type ServiceCredentials } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import type { ProviderRouter } from "../deps";
import type { EmailProvider, SendThrottle } from "../mail/providers";

/** The flag that sends a user's marketing email through SendGrid (spec §6; per user or global). */
export const SENDGRID_FLAG = "sendgrid_integration";

/** A provider with its own throttle (each provider has its own rate). */
export interface ThrottledProvider {
  provider: EmailProvider;
  throttle: SendThrottle;
}

/** Whether a user's flags turn SendGrid on. @returns the flag names enabled for the user. */
export type FlagsOf = (userId: string) => Promise<readonly string[]>;

/**
 * Picks a user's provider by the `sendgrid_integration` flag: SendGrid when the flag is on for
 * them (their override, or the global default) and a SendGrid key is configured (`sendgrid`
 * non-null), SMTP otherwise. A user's flags are cached for `cacheMs` (a campaign asks once per
 * email). @throws when the account service cannot be read and nothing is cached (the delivery is retried).
 */
export function flagProviderRouter(options: {
  smtp: ThrottledProvider;
  sendgrid: ThrottledProvider | null;
  flagsOf: FlagsOf;
  cacheMs: number;
  now?: () => number;
}): ProviderRouter {
  const { smtp, sendgrid } = options;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { on: boolean; at: number }>();
  return {
    async providerFor(userId) {
      if (!sendgrid) return smtp;
      const hit = cache.get(userId);
      if (hit && now() - hit.at < options.cacheMs) return hit.on ? sendgrid : smtp;
      let on: boolean;
      try {
        on = (await options.flagsOf(userId)).includes(SENDGRID_FLAG);
      } catch (error) {
        // A stale answer beats holding every email while the account service is away.
        if (hit) return hit.on ? sendgrid : smtp;
        throw error;
      }
      if (cache.size > 10_000) cache.clear();
      cache.set(userId, { on, at: now() });
      return on ? sendgrid : smtp;
    },
  };
}

/** The account service's GetFlags for a named user (service token). */
export function accountFlags(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): FlagsOf {
  const client = createServiceClient(AccountService, baseUrl, { timeoutMs, as: "service", credentials });
  return async (userId) => (await client.getFlags({ userId })).enabledFeatures;
}
