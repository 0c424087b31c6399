import { baseConfigSchema, hostPinsSetting, optionalSetting } from "@crafter/kit";
import { z } from "zod";

/** An unset or blank variable is "not given" (so `IMAGE_PROVIDER=` in a .env file means offline). */
/**
 * Environment of the media service: the kit's base settings plus object storage, signed URLs,
 * the image and speech providers and Unsplash. Every peer it calls has a required `<PEER>_URL`.
 */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext); services/manifest.yaml's port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50058),
  /** Credits and the monthly plan limits (Debit/Refund, ReserveUsage/ReleaseUsage). */
  BILLING_URL: z.url(),
  /** S3-compatible object storage (scripts/infra's server locally, AWS S3 or any compatible one). */
  S3_ENDPOINT: z.url(),
  S3_ACCESS_KEY_ID: z.string().min(1),
  S3_SECRET_ACCESS_KEY: z.string().min(1),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** The bucket (created at start when missing); keys start with CRAFTER_NAMESPACE. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .default("crafter-media"),
  /** Path-style addressing (`endpoint/bucket/key`), as MinIO and most local servers need. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  /**
   * HMAC key of the signed `/media/<key>?exp&sig` URLs, ≥ 32 characters. Unset: derived from
   * SERVICE_SECRET (the same in every replica).
   */
  MEDIA_URL_SECRET: optionalSetting(z.string().min(32)),
  /** Lifetime of a signed URL, in seconds. */
  MEDIA_URL_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(6 * 3600),
  /** Image generation: openai (DALL·E), google (a Gemini image model, default gemini-2.5-flash-image) or offline (the composer). Unset: offline. */
  IMAGE_PROVIDER: optionalSetting(z.enum(["openai", "google", "offline"])),
  /** Base URL of the provider's API (a local server speaking its protocol in tests). */
  IMAGE_BASE_URL: optionalSetting(z.url()),
  IMAGE_API_KEY: optionalSetting(z.string()),
  IMAGE_MODEL: optionalSetting(z.string()),
  /** Speech: openai (its speech API) or offline (espeak-ng + ffmpeg). Unset: offline. */
  SPEECH_PROVIDER: optionalSetting(z.enum(["openai", "offline"])),
  SPEECH_BASE_URL: optionalSetting(z.url()),
  SPEECH_API_KEY: optionalSetting(z.string()),
  SPEECH_MODEL: optionalSetting(z.string()),
  /** Credits one generated image and one minute of speech cost. */
  IMAGE_CREDITS: z.coerce.number().int().min(0).default(5),
  SPEECH_CREDITS_PER_MINUTE: z.coerce.number().int().min(0).default(2),
  /** Unsplash search (stock photos); unset: the system images shipped with Crafter. */
  UNSPLASH_ACCESS_KEY: optionalSetting(z.string()),
  UNSPLASH_API_URL: z.url().default("https://api.unsplash.com"),
  /** Deadline of a provider call, in milliseconds. */
  /** Provider host pins, `host=ip` (a test's local server); a pinned host may be private. */
  INTEGRATIONS_RESOLVE: hostPinsSetting,
  /** Time limit of fetching one provider's image (ImportImage), in ms. */
  INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
});

export type Config = z.infer<typeof configSchema>;
