import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/** Environment of the notifications service: the kit's base settings plus SMTP and link settings. */
export const configSchema = baseConfigSchema.extend({
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
  /** The workflows service: a scheduled craft's name and workflow (the calendar). */
  WORKFLOWS_URL: z.url(),
  /** How often the calendar looks for entries whose time has come, in milliseconds. */
  CALENDAR_DUE_SCAN_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
});

export type Config = z.infer<typeof configSchema>;
