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
  /**
   * Stripe's secret API key (`sk_…`). Empty: payments are off (checkout, plan changes and the
   * portal answer UNAVAILABLE; webhooks are refused).
   */
  STRIPE_SECRET_KEY: z.string().default(""),
  /** The signing secret of the webhook endpoint (`whsec_…`); webhooks are verified with it. */
  STRIPE_WEBHOOK_SECRET: z.string().default(""),
  /** Another Stripe API base, e.g. stripe-mock's `http://127.0.0.1:12111` (tests); empty = api.stripe.com. */
  STRIPE_API_URL: z.union([z.literal(""), z.url()]).default(""),
});

export type Config = z.infer<typeof configSchema>;
