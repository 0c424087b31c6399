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
  ACCOUNT_URL: z.url().default("http://127.0.0.1:50052"),
  PROJECTS_URL: z.url().default("http://127.0.0.1:50053"),
  WORKFLOWS_URL: z.url().default("http://127.0.0.1:50054"),
  /** Credits, expiry and plan of userInfo. */
  BILLING_URL: z.url().default("http://127.0.0.1:50056"),
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
  /** Shared with auth: proves the gateway's calls, so auth trusts the client IP they name. */
  GATEWAY_AUTH_SECRET: z.string().optional(),
  /** The built dashboard (web/dist). */
  WEB_DIST: z.string().default("web/dist"),
});

export type Config = z.infer<typeof configSchema>;
