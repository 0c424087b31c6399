import { baseConfigSchema, hostPinsSetting, optionalSetting } from "@crafter/kit";
import { z } from "zod";

/** An unset or blank variable is "not given" (so `AI_BASE_URL=` in a .env file means offline). */
/**
 * Environment of the contacts service: the kit's base settings (AUTH_URL and every server address)
 * plus its own. A peer it calls gets a required `<PEER>_URL: z.url()` here (no default) and a
 * `calls` entry in services/manifest.yaml.
 */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext); services/manifest.yaml's port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50057),
  /** Billing's GetPlan: the plan's `profiles` limit. */
  BILLING_URL: z.url(),
  /** Account (a Shopify connection's access token: GetAccessToken; an import's outcome: ReportSync). */
  ACCOUNT_URL: z.url(),
  /** Provider host pins, `host=ip` (a test's local server); a pinned host may be private. */
  INTEGRATIONS_RESOLVE: hostPinsSetting,
  /** Time limit of one call to Shopify, in ms. */
  INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A Shopify shop's admin origin, `{shop}` standing for its domain (a test's local store: `http://{shop}:29849`). */
  SHOPIFY_ADMIN_ORIGIN: z
    .string()
    .regex(/^https?:\/\/\{shop\}(:\d+)?$/)
    .default("https://{shop}"),
  /** Public origin of the deployment (the gateway); the signed links of emails point here. */
  PUBLIC_ORIGIN: z
    .url()
    .default("http://localhost:8080")
    .transform((value) => new URL(value).origin),
  /**
   * HMAC key of the signed contact links (double opt-in, preference centre, unsubscribe), ≥ 32
   * characters, the same in every replica. Unset: derived from SERVICE_SECRET.
   */
  CONTACTS_LINK_SECRET: optionalSetting(z.string().min(32)),
  /** The lead assistant's AI provider, an OpenAI-compatible endpoint; unset: answers from the profile's text. */
  AI_BASE_URL: optionalSetting(z.url()),
  AI_API_KEY: optionalSetting(z.string()),
  AI_MODEL: optionalSetting(z.string()),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * Contacts each replica holds in memory across projects (store/contact-snapshot.ts), about 3 KB of
   * heap each (141 MB measured for 50,000); the least recently read projects go first. The chart's
   * memory limit for contacts (1 GiB) leaves room for the default.
   */
  CONTACT_SNAPSHOT_CAPACITY: z.coerce.number().int().positive().default(100_000),
  /** "Ask for permission" emails a second, across every replica (Redis), and per user within that. */
  CONSENT_ASKS_PER_SECOND: z.coerce.number().positive().default(20),
  CONSENT_ASKS_PER_USER_SECOND: z.coerce.number().positive().default(5),
  /**
   * An import job's lock in ms (jobs/import-queue.ts): a replica killed mid-import has its import
   * resumed elsewhere within about twice this. Renewed every half of it while the import runs.
   */
  IMPORT_JOB_LOCK_MS: z.coerce.number().int().min(2000).default(15_000),
  /** Imports each replica runs at once. */
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * Period of the sweep that settles lead-form submissions a crash left received, in ms; it takes
   * those older than one period (a live request settles its own within it).
   */
  LEAD_SWEEP_MS: z.coerce.number().int().min(1000).default(10_000),
});

export type Config = z.infer<typeof configSchema>;
