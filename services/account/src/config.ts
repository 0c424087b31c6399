import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/** Environment of the account service: the kit's base settings plus its own port. */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50052),
  /** Billing (admin credit grants go through its ledger). */
  BILLING_URL: z.url(),
  /** How long global feature flags are served from memory, in ms: an operator's flip shows within it. */
  FLAGS_CACHE_MS: z.coerce.number().int().nonnegative().default(5000),
});

export type Config = z.infer<typeof configSchema>;
