import { isIP } from "node:net";
import { z } from "zod";
import { type KeyRing, parseKeyRing } from "../crypto/secret-box";

/**
 * Settings every service reads. Each service extends this with its own fields in its config.ts;
 * nothing else reads process.env.
 */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Prefix of database names, Kafka topics, consumer groups and Redis keys; lets a test stack share infra. */
  CRAFTER_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/)
    .default("crafter"),
  /** Address the servers bind: loopback locally; 0.0.0.0 in a container, so other pods and probes reach it. */
  HOST: z.string().min(1).default("127.0.0.1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  MONGODB_URL: z.string().startsWith("mongodb").default("mongodb://127.0.0.1:27017/"),
  KAFKA_BROKERS: z.string().min(1).default("127.0.0.1:9092"),
  /**
   * Kafka consumer session timeout, in milliseconds: a killed replica's partitions wait this long
   * before another member takes them, and a restarted replica's group join waits for it too.
   */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(30_000),
  REDIS_URL: z.string().startsWith("redis").default("redis://127.0.0.1:6379"),
  /** OTLP/HTTP endpoint of an OpenTelemetry collector (e.g. http://127.0.0.1:4318); telemetry is off when unset. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** Period of the OTLP metric export, in milliseconds. */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().positive().default(15_000),
  /**
   * Address of the auth service, whose GetJwks publishes the keys that verify access tokens.
   * Required, like every peer's address (services/manifest.yaml): no default that works only locally.
   */
  AUTH_URL: z.url(),
  JWT_ISSUER: z.string().default("crafter-auth"),
  JWT_AUDIENCE: z.string().default("crafter"),
  /**
   * This service's secret for auth's IssueServiceToken (client credentials), at least 32
   * characters; auth holds the same value in SERVICE_SECRETS. Needed only by services that make
   * calls of their own (`as: "service"` clients); from the chart's service-secrets Secret, or
   * generated per stack by scripts/stack.mjs.
   */
  SERVICE_SECRET: z.string().min(32).optional(),
  /** Default deadline of outgoing RPCs, in milliseconds. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Grace period for in-flight work on SIGTERM, in milliseconds. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** Thrown by loadConfig; its message names every bad variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Validates the environment once into a typed object.
 * @throws ConfigError naming each invalid or missing variable, so a service fails fast at start.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(root)";
    const unset = issue.code === "invalid_type" && issue.path.length === 1 && env[String(issue.path[0])] === undefined;
    if (!unset) return `  ${name}: ${issue.message}`;
    // A peer's address: say whose (microservices-demo's mustMapEnv habit: fail at start, name the variable).
    const peer = /^([A-Z][A-Z0-9]*)_URL$/.exec(name)?.[1]?.toLowerCase();
    return peer
      ? `  ${name} is not set: the address of the ${peer} service, which this service calls (services/manifest.yaml)`
      : `  ${name} is not set (required)`;
  });
  throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
}

/** Comma-separated list → trimmed, non-empty items. */
export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An optional setting of `schema`: unset, or an empty or blank string, reads as undefined. */
export const optionalSetting = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

/**
 * `host=ip` pairs, comma-separated (`*.site.test=127.0.0.1`), like curl's --resolve: the outbound
 * module pins those host names to those addresses (tests point a provider's name at a local server).
 * @returns host → IP; "" for none.
 */
export const hostPinsSetting = z
  .string()
  .default("")
  .transform((text, ctx) => {
    const pins: Record<string, string> = {};
    for (const pair of splitList(text)) {
      const [host, ip] = pair.split("=").map((part) => part.trim());
      if (!host || !ip || isIP(ip) === 0) {
        ctx.addIssue({ code: "custom", message: `"${pair}" is not host=ip` });
        continue;
      }
      pins[host] = ip;
    }
    return pins;
  });

/**
 * `SECRETS_KEYS`: the key ring that seals secrets at rest (`id:key,id:key`, 32-byte keys in base64
 * or hex; the first seals, every one opens, so a new key goes first to rotate). Optional: unset,
 * the service's sealed features are off.
 */
export const keyRingSetting = optionalSetting(
  z.string().transform((text, ctx): KeyRing => {
    try {
      return parseKeyRing(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `SECRETS_KEYS: ${(error as Error).message}` });
      return z.NEVER;
    }
  }),
);
