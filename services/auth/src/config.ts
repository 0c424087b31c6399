import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";
import { parseServiceSecrets } from "./domain/service-secrets";

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(50051),
  /** Auth itself (its own JWKS), in its own pod: not a peer, so a loopback default is right here. */
  AUTH_URL: z.url().default("http://127.0.0.1:50051"),
  /** Ed25519 private key as a JWK (from a Secret). When unset, a key is generated once and kept in the database. */
  JWT_PRIVATE_JWK: z.string().optional(),
  /**
   * The services that may get a service token, and their secrets: `name=secret` pairs separated
   * by commas (each secret ≥ 32 characters, the SERVICE_SECRET of that service). From the chart's
   * service-secrets Secret, or generated per stack by scripts/stack.mjs. Empty: no service tokens.
   */
  SERVICE_SECRETS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      const parsed = parseServiceSecrets(text);
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.secrets;
    }),
  /** Lifetime of a service token, in seconds. */
  SERVICE_TOKEN_TTL_S: z.coerce.number().int().positive().max(3600).default(300),
  ACCESS_TOKEN_TTL_S: z.coerce.number().int().positive().default(3600),
  /** Absolute lifetime of a refresh-token family, from sign-in. */
  REFRESH_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600),
  /** A refresh token presented again within this window (parallel tabs) rotates instead of revoking. */
  REFRESH_REUSE_GRACE_MS: z.coerce.number().int().nonnegative().default(20_000),
  VERIFY_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  RESET_TOKEN_TTL_S: z.coerce.number().int().positive().default(3600),
  /** Sign-in attempts per client IP per minute. */
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(60),
  /** Failed sign-ins per account per 15 minutes. */
  SIGNIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
});

export type Config = z.infer<typeof configSchema>;
