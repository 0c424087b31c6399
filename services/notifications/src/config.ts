import { baseConfigSchema, hostPinsSetting, keyRingSetting, optionalSetting } from "@crafter/kit";
import { z } from "zod";

/** Environment of the notifications service: the kit's base settings plus SMTP and link settings. */
export const configSchema = baseConfigSchema
  .extend({
    /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
    PORT: z.coerce.number().int().min(0).max(65_535).default(50055),
    /** SMTP server, e.g. smtp://127.0.0.1:1025 (Mailpit) or smtps://user:pass@smtp.example.com. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL")
      .default("smtp://127.0.0.1:1025"),
    /** The From header of every email. */
    MAIL_FROM: z.string().min(3).default("Crafter <no-reply@crafter.local>"),
    /** Public origin of this deployment (the gateway); email links point here. Path and trailing slash dropped. */
    PUBLIC_ORIGIN: z
      .url()
      .default("http://localhost:8080")
      .transform((value) => new URL(value).origin),
    /** SMTP connection and socket timeout, in milliseconds. */
    SMTP_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),

    // The email area: campaigns and automation sends.
    CONTACTS_URL: z.url(),
    BILLING_URL: z.url(),
    PROJECTS_URL: z.url(),
    /** Timeout of a call to a peer service, in milliseconds. */
    RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * Marketing email: `smtp` (default) sends through SMTP, and through SendGrid for the users whose
     * `sendgrid_integration` flag is on when SENDGRID_API_KEY is set; `sendgrid` sends everyone's
     * through SendGrid.
     */
    EMAIL_PROVIDER: z.enum(["smtp", "sendgrid"]).default("smtp"),
    /** The account service: a user's `sendgrid_integration` flag. */
    ACCOUNT_URL: z.url(),
    /** How long a user's flags are trusted before the account service is asked again (ms). */
    EMAIL_FLAGS_CACHE_MS: z.coerce.number().int().min(0).default(60_000),
    /** SendGrid's API (a local server speaking it in tests) and key; required when EMAIL_PROVIDER=sendgrid. */
    SENDGRID_API_URL: z.url().default("https://api.sendgrid.com"),
    SENDGRID_API_KEY: optionalSetting(z.string().min(1)),
    /** SendGrid's Signed Event Webhook verification key (base64 DER public key); unset: the webhook is refused. */
    SENDGRID_WEBHOOK_PUBLIC_KEY: optionalSetting(z.string().min(40)),
    /** SendGrid's API for businesses' own keys (a test's local server, reached through INTEGRATIONS_RESOLVE). */
    SENDGRID_BASE_URL: z.url().default("https://api.sendgrid.com"),
    /** How often automation emails that wait for their business's own provider are tried again (ms). */
    EMAIL_WAITING_RETRY_MS: z.coerce.number().int().min(250).default(60_000),
    /** Messages a second through one business's own SendGrid key, across every replica. */
    SENDGRID_BUSINESS_RATE_PER_SECOND: z.coerce.number().positive().default(50),
    /** Time limit of one call to a business's own provider, in ms. */
    INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Provider host pins, `host=ip,…` (tests' local SendGrid, Graph API, TikTok); a pinned host may be private. */
    INTEGRATIONS_RESOLVE: hostPinsSetting,
    /** The From header of marketing email (defaults to MAIL_FROM). */
    EMAIL_FROM: optionalSetting(z.string().min(3)),
    /** Messages a second per provider, across every replica (paced in Redis). */
    EMAIL_RATE_PER_SECOND: z.coerce.number().positive().default(200),
    /** Messages a second per account and provider, across every replica; unset: EMAIL_RATE_PER_SECOND. */
    EMAIL_ACCOUNT_RATE_PER_SECOND: optionalSetting(z.coerce.number().positive()),
    /** Campaign rounds (or parts) one replica works on at once (together within EMAIL_CONCURRENCY). */
    EMAIL_CAMPAIGNS_AT_ONCE: z.coerce.number().int().min(1).max(32).default(4),
    /**
     * Parts each campaign is sent in, each its own job, so several replicas share one large campaign
     * (all of them within EMAIL_RATE_PER_SECOND, paced in Redis).
     * 1: one replica sends a campaign, another takes over when it dies. The default, 2, lets the
     * chart's two replicas share every campaign (one replica runs both parts).
     */
    EMAIL_CAMPAIGN_PARTS: z.coerce.number().int().min(1).max(16).default(2),
    /**
     * SMTP connections kept open for campaigns, and messages one replica has between their claimed
     * attempt and their `sent` record at once (all its campaigns together): the most a crash can
     * leave that may have left unrecorded.
     */
    EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
    /** Tries per message (with backoff from EMAIL_RETRY_BASE_MS: ×1, ×4, ×16…). */
    EMAIL_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    EMAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).default(500),
    /** A send attempt with no outcome after this long was cut short (a crash) and is tried again. */
    EMAIL_ATTEMPT_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
    /** How often the dispatch scan looks for due and sending campaigns (a BullMQ job scheduler). */
    EMAIL_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
    /** How often a campaign stopped by the plan limit asks billing again. */
    EMAIL_LIMIT_RETRY_MS: z.coerce.number().int().min(100).default(60_000),
    /** HMAC key of tracking tokens and interim consent links, ≥ 32 characters; unset: derived from SERVICE_SECRET. */
    EMAIL_TRACKING_SECRET: optionalSetting(z.string().min(32)),
    /** Multiplies automation wait durations: 1 in production; tests shorten waits (e.g. 0.001). */
    AUTOMATION_WAIT_SCALE: z.coerce.number().positive().max(1).default(1),
    /**
     * How often the date_field trigger scans for today's dates (UTC), in ms. Each scan starts the day's
     * runs it has not started yet, so a contact whose date is set during the day still gets its run.
     */
    AUTOMATION_DATE_SCAN_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
    /**
     * The key ring sealing sending domains' DKIM private keys (AES-256-GCM), `id:key,id:key` with
     * 32-byte keys (base64 or hex); the first seals, every one opens (rotate by putting a new key
     * first). Unset: DKIM keys cannot be made or used; sender identities still work.
     */
    /** How often approval emails the SMTP server did not take are tried again (ms). */
    APPROVAL_MAIL_RETRY_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
    SECRETS_KEYS: keyRingSetting,
    /**
     * DNS servers that sending domains' records are checked with, `host` or `host:port`, comma
     * separated (a test's local DNS server); unset: the system's resolvers.
     */
    DNS_SERVERS: z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((server) => server.trim())
          .filter(Boolean),
      ),
    /** Time limit of one DNS query, in ms. */
    DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** The SPF include a sending domain publishes (`include:`); unset: `_spf.` + the From domain of MAIL_FROM. */
    SENDER_SPF_INCLUDE: optionalSetting(z.string().regex(/^[a-z0-9._-]+\.[a-z]{2,}$/i, "must be a domain name")),
    /** Where DMARC aggregate reports of sending domains go (`rua=mailto:`); unset: none asked for. */
    SENDER_DMARC_REPORT: optionalSetting(z.email()),
    /** How long a from address confirmation link works, in ms (default 48 hours). */
    SENDER_LINK_TTL_MS: z.coerce.number().int().min(60_000).default(172_800_000),
    /** How long a project's resolved sender is reused by a process, in ms. */
    SENDER_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
    /** The workflows service: a scheduled craft's name and workflow (the calendar). */
    WORKFLOWS_URL: z.url(),
    /** How often the calendar looks for entries whose time has come, in milliseconds (a BullMQ job scheduler). */
    CALENDAR_DUE_SCAN_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
    /**
     * Hosts pinned to an address for webhook deliveries (`host=ip,*.example.test=ip`): the tests'
     * local receivers; a pinned host may be private. Every other endpoint must be public.
     */
    WEBHOOKS_RESOLVE: hostPinsSetting,
    /** Time limit of one webhook delivery attempt, in ms. */
    WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
    /** Multiplies the webhook retry schedule (5 s … 8 h, a day in all): 1 in production; tests shorten it. */
    WEBHOOKS_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
    /** Failed delivery attempts in a row that turn an endpoint off (with a notice to its owner). */
    WEBHOOKS_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(2).max(10_000).default(100),
    /** Days a project's webhook events, deliveries and attempts are kept (the polling fallback and the log). */
    WEBHOOKS_KEEP_DAYS: z.coerce.number().int().min(1).max(365).default(30),

    // Social publishing (Meta, TikTok) from the calendar and automations.
    /** The media service: a social post's image as a signed, expiring URL for the provider. */
    MEDIA_URL: z.url(),
    /** The Graph API's origin; a test's local server in the test stack. */
    META_BASE_URL: z.url().default("https://graph.facebook.com"),
    /** TikTok's Content Posting API origin; a test's local server in the test stack. */
    TIKTOK_BASE_URL: z.url().default("https://open.tiktokapis.com"),
    /** Time limit of one provider call, in ms. */
    SOCIAL_HTTP_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
    /**
     * An attempt with no outcome after this long was cut short (a crash): its channel's recent posts
     * are searched before it is tried again. Longer than an attempt can take (its calls and polls).
     */
    SOCIAL_ATTEMPT_LEASE_MS: z.coerce.number().int().min(1000).default(300_000),
    /** How often posts whose time has come, and attempts cut short, are looked for (ms). */
    SOCIAL_SWEEP_MS: z.coerce.number().int().min(500).max(3_600_000).default(15_000),
    /** Tries of a channel before it shows failed (with Retry), and the first wait between them (×4 each time). */
    SOCIAL_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    SOCIAL_RETRY_BASE_MS: z.coerce.number().int().min(100).default(30_000),
    /** How long the image URL given to the provider works, in seconds. */
    SOCIAL_IMAGE_URL_TTL_S: z.coerce.number().int().min(300).max(86_400).default(3600),
  })
  .superRefine((config, ctx) => {
    if (!config.EMAIL_TRACKING_SECRET && !config.SERVICE_SECRET)
      ctx.addIssue({
        code: "custom",
        path: ["EMAIL_TRACKING_SECRET"],
        message: "EMAIL_TRACKING_SECRET or SERVICE_SECRET is required (signed email links)",
      });
    if (config.EMAIL_PROVIDER === "sendgrid" && !config.SENDGRID_API_KEY)
      ctx.addIssue({
        code: "custom",
        path: ["SENDGRID_API_KEY"],
        message: "SENDGRID_API_KEY is required when EMAIL_PROVIDER=sendgrid",
      });
  });

export type Config = z.infer<typeof configSchema>;
