import { trace } from "@opentelemetry/api";
import pino, { type Logger } from "pino";

export type { Logger } from "pino";

/**
 * JSON logger (pino). Each line carries `service` and, inside a traced operation, `trace_id` and
 * `span_id` of the active OpenTelemetry span, so logs join traces in Grafana.
 */
export function createLogger(service: string, level = "info"): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    redact: { paths: ["password", "*.password", "token", "*.token", "authorization"], censor: "[redacted]" },
  });
}
