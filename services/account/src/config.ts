import { baseConfigSchema, hostPinsSetting, keyRingSetting, optionalSetting } from "@crafter/kit";
import { z } from "zod";
import { providerEnvNames } from "./domain/providers";

/** Each provider's `<PREFIX>_CLIENT_ID`, `_CLIENT_SECRET` and `_BASE_URL` (domain/providers.ts). */
const providerSettings = Object.fromEntries(
  providerEnvNames().map((name) => [
    name,
    optionalSetting(name.endsWith("_BASE_URL") ? z.url() : z.string().max(4096)),
  ]),
);

/** Environment of the account service: the kit's base settings plus its own. */
export const configSchema = baseConfigSchema
  .extend({
    /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
    PORT: z.coerce.number().int().min(0).max(65_535).default(50052),
    /** Billing (admin credit grants go through its ledger). */
    BILLING_URL: z.url(),
    /** Projects (who may connect an integration: the caller's role on the project). */
    PROJECTS_URL: z.url(),
    /** How long global feature flags are served from memory, in ms: an operator's flip shows within it. */
    FLAGS_CACHE_MS: z.coerce.number().int().nonnegative().default(5000),
    /**
     * The key ring sealing integrations' tokens (AES-256-GCM), `id:key,id:key` with 32-byte keys
     * (base64 or hex); the first seals, every one opens (rotate by putting a new key first).
     * Unset: integrations cannot be connected.
     */
    SECRETS_KEYS: keyRingSetting,
    /** The browser's origin: providers redirect to `<PUBLIC_ORIGIN>/api/integrations/<provider>/callback`. */
    PUBLIC_ORIGIN: z.url().default("http://localhost:8080"),
    /** HMAC key of connect attempts' `state` (≥ 32 characters); unset: derived from SERVICE_SECRET. */
    INTEGRATIONS_STATE_SECRET: optionalSetting(z.string().min(32)),
    /** How long a connect attempt may take between its start and the provider's callback, in ms. */
    INTEGRATIONS_ATTEMPT_MS: z.coerce.number().int().min(10_000).max(3_600_000).default(600_000),
    /** How long before its expiry an access token is refreshed, in ms. */
    INTEGRATIONS_REFRESH_MARGIN_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
    /** Time limit of one call to a provider, in ms. */
    INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Provider host pins, `host=ip` (a test's local OAuth server); a pinned host may be private. */
    INTEGRATIONS_RESOLVE: hostPinsSetting,
    /** SendGrid's v3 API, where a business's own key is checked (a test's local server). */
    SENDGRID_BASE_URL: z.url().default("https://api.sendgrid.com"),
    ...providerSettings,
    /** The public origin providers send webhooks to (Shopify); unset: PUBLIC_ORIGIN. */
    INTEGRATIONS_WEBHOOK_ORIGIN: optionalSetting(z.url()),
    /** The Shopify app's client id and secret (its secret also signs the callback's query and the webhooks). */
    SHOPIFY_CLIENT_ID: optionalSetting(z.string().max(256)),
    SHOPIFY_CLIENT_SECRET: optionalSetting(z.string().max(256)),
    /** A shop's admin origin, `{shop}` standing for its domain: `https://{shop}` (a test's local store: `http://{shop}:29849`). */
    SHOPIFY_ADMIN_ORIGIN: optionalSetting(z.string().regex(/^https?:\/\/\{shop\}(:\d+)?$/)),
    /** The shops' domain suffix: `myshopify.com` (a test's local store: `myshopify.crafter.test`). */
    SHOPIFY_SHOP_SUFFIX: optionalSetting(z.string().regex(/^[a-z0-9.-]+$/)),
  })
  .superRefine((config, ctx) => {
    if (!config.INTEGRATIONS_STATE_SECRET && !config.SERVICE_SECRET)
      ctx.addIssue({
        code: "custom",
        path: ["INTEGRATIONS_STATE_SECRET"],
        message: "INTEGRATIONS_STATE_SECRET or SERVICE_SECRET is required (signed connect state)",
      });
  });

export type Config = z.infer<typeof configSchema>;
