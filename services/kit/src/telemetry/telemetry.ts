import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { MongooseInstrumentation } from "@opentelemetry/instrumentation-mongoose";
import { metrics, NodeSDK, resources } from "@opentelemetry/sdk-node";
import type { z } from "zod";
import { baseConfigSchema, loadConfig } from "../config/config";

/** The telemetry settings (part of the base config; the preload reads them alone, before the service's config). */
export const telemetryConfigSchema = baseConfigSchema.pick({
  OTEL_EXPORTER_OTLP_ENDPOINT: true,
  OTEL_METRIC_EXPORT_INTERVAL: true,
  NODE_ENV: true,
});

export type TelemetryConfig = z.infer<typeof telemetryConfigSchema>;

// One SDK per process, even when the preload bundle and main.js each carry a copy of this module.
const RUNNING = Symbol.for("crafter.telemetry");
type Running = { service: string; shutdown: () => Promise<void> };
const globals = globalThis as { [RUNNING]?: Running };

/** The modules the SDK instruments through hooks; the preload registers the ESM loader for these only. */
export const INSTRUMENTED_MODULES = ["http", "https", "express", "router", "ioredis", "mongoose"];

/**
 * Starts the OpenTelemetry Node SDK for one service: traces (batched) and metrics (every
 * `OTEL_METRIC_EXPORT_INTERVAL` ms) over OTLP/HTTP JSON to `config.OTEL_EXPORTER_OTLP_ENDPOINT`, W3C
 * trace context propagation, and auto-instrumentation of http, express, ioredis and mongoose.
 * RPCs and Kafka are traced by the kit itself (rpc/interceptors, events/). With no endpoint nothing
 * starts and the API stays a no-op, so telemetry costs nothing when it is off.
 *
 * Idempotent: the preload (telemetry/preload.ts, `node --import`) starts it before any instrumented
 * module is loaded — only then can http/express/ioredis/mongoose be patched under ESM; runService
 * and the gateway call it again and get the running SDK back.
 * @returns a function that flushes and shuts the SDK down.
 */
export function startTelemetry(serviceName: string, config: Partial<TelemetryConfig>): () => Promise<void> {
  const running = globals[RUNNING];
  if (running) return running.shutdown;
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/$/, "");
  if (!endpoint) return async () => undefined;

  // Stable HTTP semantic conventions: http.server.request.duration in seconds (the old default is ms).
  process.env.OTEL_SEMCONV_STABILITY_OPT_IN ??= "http";
  const sdk = new NodeSDK({
    serviceName,
    resource: resources.resourceFromAttributes({ "deployment.environment.name": config.NODE_ENV ?? "development" }),
    traceExporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
    metricReaders: [
      new metrics.PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }),
        exportIntervalMillis: config.OTEL_METRIC_EXPORT_INTERVAL ?? 15_000,
      }),
    ],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and the collector's own traffic are noise.
        ignoreIncomingRequestHook: (request) => request.url === "/healthz",
      }),
      // Routers and handlers only: a span per middleware (csrf, cookies, json…) is cost without insight.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Queries outside a request or event (start-up, pollers) would each be a trace of their own.
      new IORedisInstrumentation({ requireParentSpan: true }),
      new MongooseInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  const shutdown = () => sdk.shutdown();
  globals[RUNNING] = { service: serviceName, shutdown };
  return shutdown;
}

/** Starts telemetry from the environment alone (for the preload, before the service's config). */
export function startTelemetryFromEnv(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const config = loadConfig(telemetryConfigSchema, env);
  startTelemetry(serviceName, config);
  return Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT);
}
