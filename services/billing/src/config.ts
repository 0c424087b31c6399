import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/** Environment of the billing service: the kit's base settings plus the free tier. */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50056),
  /** Credits every new user is given on sign-up (UserRegistered). */
  FREE_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** Days after sign-up when the unspent free credits expire. */
  FREE_CREDITS_DAYS: z.coerce.number().int().positive().max(3650).default(30),
});

export type Config = z.infer<typeof configSchema>;
