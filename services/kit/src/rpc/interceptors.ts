import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Logger } from "pino";
import { metrics } from "../telemetry/metrics";

const tracer = trace.getTracer("crafter-rpc");

/** grpc.health.v1: public, and left out of traces and metrics. */
export const HEALTH_SERVICE = "grpc.health.v1.Health";

const CARRIER = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};

/** The Connect code name of a failure ("OK" for success), for span and metric attributes. */
function codeOf(error: unknown): string {
  if (error === undefined) return "OK";
  return Code[ConnectError.from(error).code] ?? "unknown";
}

/**
 * Server interceptor: one SERVER span per RPC, continuing the caller's W3C trace context, and the
 * `rpc.server.duration` histogram (s, by rpc.service, rpc.method, rpc.code). For streams the duration
 * is the time to the response headers. grpc.health.v1 calls are left out.
 */
export function serverTracingInterceptor(): Interceptor {
  return (next) => async (req) => {
    // Probes (every few seconds from Kubernetes) would drown the traces and skew the RED metrics.
    if (req.service.typeName === HEALTH_SERVICE) return next(req);
    const started = performance.now();
    const parent = propagation.extract(context.active(), req.header, CARRIER);
    const attributes = { "rpc.service": req.service.typeName, "rpc.method": req.method.name };
    const span = tracer.startSpan(
      `${req.service.typeName}/${req.method.name}`,
      { kind: SpanKind.SERVER, attributes: { "rpc.system": "connect_rpc", ...attributes } },
      parent,
    );
    let failure: unknown;
    try {
      return await context.with(trace.setSpan(parent, span), () => next(req));
    } catch (error) {
      failure = error;
      const connectError = ConnectError.from(error);
      span.setAttribute("rpc.connect_rpc.error_code", codeOf(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: connectError.rawMessage });
      throw error;
    } finally {
      span.end();
      metrics.rpcServerDuration.record((performance.now() - started) / 1000, {
        ...attributes,
        "rpc.code": codeOf(failure),
      });
    }
  };
}

/**
 * Client interceptor: one CLIENT span per outgoing RPC, whose context (traceparent) goes in the
 * request headers, and the `rpc.client.duration` histogram (s, by rpc.service, rpc.method, rpc.code).
 */
export function clientTracingInterceptor(): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const attributes = { "rpc.service": req.service.typeName, "rpc.method": req.method.name };
    const span = tracer.startSpan(`${req.service.typeName}/${req.method.name}`, {
      kind: SpanKind.CLIENT,
      attributes: { "rpc.system": "connect_rpc", ...attributes },
    });
    const active = trace.setSpan(context.active(), span);
    propagation.inject(active, req.header, { set: (headers, key, value) => headers.set(key, value) });
    let failure: unknown;
    try {
      return await context.with(active, () => next(req));
    } catch (error) {
      failure = error;
      span.setAttribute("rpc.connect_rpc.error_code", codeOf(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: ConnectError.from(error).rawMessage });
      throw error;
    } finally {
      span.end();
      metrics.rpcClientDuration.record((performance.now() - started) / 1000, {
        ...attributes,
        "rpc.code": codeOf(failure),
      });
    }
  };
}

/** Server interceptor: logs failed RPCs; expected client errors at debug, server faults at error. */
export function loggingInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    try {
      return await next(req);
    } catch (error) {
      const connectError = ConnectError.from(error);
      const serverFault = [Code.Internal, Code.Unknown, Code.DataLoss, Code.Unavailable].includes(connectError.code);
      logger[serverFault ? "error" : "debug"](
        {
          rpc: `${req.service.typeName}/${req.method.name}`,
          code: Code[connectError.code],
          ms: Math.round(performance.now() - started),
          err: serverFault ? error : undefined,
        },
        connectError.rawMessage,
      );
      throw error;
    }
  };
}
