import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { KafkaJsInstrumentation } from "@opentelemetry/instrumentation-kafkajs";
import { MongooseInstrumentation } from "@opentelemetry/instrumentation-mongoose";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { NodeSDK } from "@opentelemetry/sdk-node";

/**
 * Starts the OpenTelemetry Node SDK for one service. Traces go over OTLP/HTTP to `endpoint`
 * (e.g. http://collector:4318) when given; without it the SDK still propagates W3C trace context
 * (our RPC interceptors and Kafka headers use it) but exports nothing.
 * @returns a function that flushes and shuts the SDK down.
 */
export function startTelemetry(serviceName: string, endpoint?: string): () => Promise<void> {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: endpoint ? new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }) : undefined,
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation(),
      new IORedisInstrumentation(),
      new KafkaJsInstrumentation(),
      new MongooseInstrumentation(),
      new PinoInstrumentation(),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
