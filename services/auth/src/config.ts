import { baseConfigSchema, hostPinsSetting, optionalSetting } from "@crafter/kit";
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
  /**
   * Failed sign-ins per (account, client IP) pair per 15 minutes; then that pair is locked out for
   * the rest of the window. The owner signing in from another address is not (OWASP lock-out guidance).
   */
  SIGNIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  /** Mails (sign-up, resend, forgot-password together) per address per hour; more are dropped silently. */
  MAIL_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(3),
  /** Mail-sending requests per client IP per hour; more answer 429. */
  MAIL_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  /** An unverified account is removed this long after its last sign-up (or resend). */
  UNVERIFIED_ACCOUNT_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(3 * 24 * 3600),
  /**
   * Addresses (comma-separated; `@domain` for a whole domain) whose verified users are admins: how a fresh stack gets its first
   * admin (the `role` claim says admin; the stored role is unchanged, so removing an address
   * takes effect at that user's next sign-in or refresh).
   */
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((text) =>
      text
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Lifetime of the access tokens an API key is traded for; a revoked key is also denied at once. */
  API_KEY_ACCESS_TTL_S: z.coerce.number().int().positive().default(300),
  /** Requests per API key per minute (each request through the gateway verifies the key once). */
  API_KEY_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /**
   * Google sign-in (OpenID Connect): the issuer whose discovery document (`/.well-known/openid-configuration`)
   * names the authorization, token and JWKS endpoints; a test's local OpenID provider in the test stack.
   */
  GOOGLE_OIDC_ISSUER: z.url().default("https://accounts.google.com"),
  /** The Google OAuth client (the same pair the account service connects with); unset: Google sign-in is not offered. */
  GOOGLE_CLIENT_ID: optionalSetting(z.string().max(4096)),
  GOOGLE_CLIENT_SECRET: optionalSetting(z.string().max(4096)),
  /** The browser's origin: Google sends the browser back to `<PUBLIC_ORIGIN>/auth/google/callback`. */
  PUBLIC_ORIGIN: z.url().default("http://localhost:8080"),
  /** Provider host pins, `host=ip` (a test's local OpenID provider); a pinned host may be private. */
  INTEGRATIONS_RESOLVE: hostPinsSetting,
  /** Time limit of one call to Google (discovery, token, JWKS), in ms. */
  GOOGLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How long a Google sign-in may take between its start and the callback, in seconds. */
  GOOGLE_SIGNIN_ATTEMPT_S: z.coerce.number().int().min(60).max(3600).default(600),
  /** How long a Google identity waits for its account's password sign-in to be linked, in seconds. */
  GOOGLE_LINK_TTL_S: z.coerce.number().int().min(60).max(86_400).default(1800),
});

export type Config = z.infer<typeof configSchema>;
