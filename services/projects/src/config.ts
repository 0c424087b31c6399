import { baseConfigSchema, hostPinsSetting, optionalSetting, splitList } from "@crafter/kit";
import { z } from "zod";

/** Environment of the projects service: the kit's base settings plus its own. */
export const configSchema = baseConfigSchema
  .extend({
    /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
    PORT: z.coerce.number().int().min(0).max(65_535).default(50053),
    /** Public origin of the deployment (the gateway): its host is no business's custom domain. */
    PUBLIC_ORIGIN: z
      .url()
      .default("http://localhost:8080")
      .transform((value) => new URL(value).origin),
    /**
     * The host name a custom domain's CNAME points at (the ingress that serves custom domains);
     * unset: PUBLIC_ORIGIN's host.
     */
    CUSTOM_DOMAIN_TARGET: optionalSetting(z.string().regex(/^[a-z0-9.-]+$/i, "must be a host name")),
    /**
     * DNS servers custom domains' records are checked with, `host` or `host:port`, comma separated
     * (a test's local DNS server); unset: the system's resolvers.
     */
    DNS_SERVERS: z.string().default("").transform(splitList),
    /** Time limit of one DNS query, in ms. */
    DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** How often custom domains not verified yet are checked again, in ms. */
    CUSTOM_DOMAIN_CHECK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
    /** How long a verified custom domain goes before it is checked again, in ms. */
    CUSTOM_DOMAIN_RECHECK_MS: z.coerce.number().int().min(1000).max(604_800_000).default(21_600_000),
    /** Account (a connection's access token: GetAccessToken). */
    ACCOUNT_URL: z.url(),
    /** Media (a Shopify product's images copied into the library: ImportImage). */
    MEDIA_URL: z.url(),
    /**
     * Moves the three Google Business Profile APIs below to this origin (a test's local server);
     * each keeps its own paths.
     */
    GOOGLE_BUSINESS_API_URL: optionalSetting(z.url()),
    /** Account Management API. */
    GOOGLE_BUSINESS_ACCOUNTS_URL: z.url().default("https://mybusinessaccountmanagement.googleapis.com"),
    /** Business Information API. */
    GOOGLE_BUSINESS_INFORMATION_URL: z.url().default("https://mybusinessbusinessinformation.googleapis.com"),
    /** Google My Business API v4 (reviews and replies). */
    GOOGLE_BUSINESS_REVIEWS_URL: z.url().default("https://mybusiness.googleapis.com"),
    /** Provider host pins, `host=ip` (a test's local server); a pinned host may be private. */
    INTEGRATIONS_RESOLVE: hostPinsSetting,
    /** Time limit of one call to Google, in ms. */
    INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** A Shopify shop's admin origin, `{shop}` standing for its domain (a test's local store: `http://{shop}:29849`). */
    SHOPIFY_ADMIN_ORIGIN: z
      .string()
      .regex(/^https?:\/\/\{shop\}(:\d+)?$/)
      .default("https://{shop}"),
    /** How often every chosen location's reviews are synced, in ms (default hourly). */
    GOOGLE_REVIEWS_SYNC_MS: z.coerce.number().int().min(10_000).max(86_400_000).default(3_600_000),
  })
  .transform((config) => ({
    ...config,
    CUSTOM_DOMAIN_TARGET: (config.CUSTOM_DOMAIN_TARGET ?? new URL(config.PUBLIC_ORIGIN).hostname).toLowerCase(),
  }));

export type Config = z.infer<typeof configSchema>;
