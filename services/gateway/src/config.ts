import { baseConfigSchema, splitList } from "@crafter/kit";
import { z } from "zod";

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8080),
  HOST: z.string().default("0.0.0.0"),
  /** The origin users open (links in emails, the CSRF same-origin check). */
  PUBLIC_ORIGIN: z.url().default("http://localhost:8080"),
  /** More origins accepted by the CSRF check, comma-separated (e.g. the Vite dev server). */
  EXTRA_ORIGINS: z
    .string()
    .default("")
    .transform((value) => splitList(value)),
  /** Addresses of the services the gateway calls (services/manifest.yaml), required: no local default. */
  ACCOUNT_URL: z.url(),
  PROJECTS_URL: z.url(),
  WORKFLOWS_URL: z.url(),
  /** Credits, expiry and plan of userInfo. */
  BILLING_URL: z.url(),
  /** Contacts, segments, imports and lead capture. */
  CONTACTS_URL: z.url(),
  /** Assets, edits, uploads and the signed /media/* files. */
  MEDIA_URL: z.url(),
  /** Email templates and campaigns, the calendar, the inbox and automations. */
  NOTIFICATIONS_URL: z.url(),
  /** Set false only for plain-http hosts other than localhost; browsers treat localhost as secure. */
  COOKIE_SECURE: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  /**
   * Express "trust proxy" setting: hops in front of the gateway (ingress). The client IP of every
   * rate limit comes from this alone (X-Forwarded-For is read only this many hops deep).
   */
  TRUST_PROXY: z.coerce.number().int().nonnegative().default(0),
  /** The built dashboard (web/dist). */
  WEB_DIST: z.string().default("web/dist"),
  /**
   * How long a team member's delegated token is reused, in ms: a member removed through
   * another gateway process loses access within it (this one drops it at once). 0 = ask every time.
   */
  DELEGATION_CACHE_MS: z.coerce.number().int().nonnegative().default(60_000),
});

export type Config = z.infer<typeof configSchema>;
