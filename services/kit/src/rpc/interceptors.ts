import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Logger } from "pino";
import { kAccessToken, kUser } from "./identity";
import type { AccessTokenVerifier } from "./jwks";

const tracer = trace.getTracer("crafter-rpc");

/**
 * Server interceptor: when the call carries `authorization: Bearer <jwt>`, verifies it and puts the
 * user in `kUser` (and the token in `kAccessToken`). A present but invalid token fails the call with
 * Unauthenticated; an absent one leaves `kUser` unset, and handlers that need a user call requireUser.
 */
export function authInterceptor(verify: AccessTokenVerifier): Interceptor {
  return (next) => async (req) => {
    const header = req.header.get("authorization");
    if (header?.startsWith("Bearer ")) {
      const token = header.slice("Bearer ".length);
      try {
        req.contextValues.set(kUser, await verify(token));
        req.contextValues.set(kAccessToken, token);
      } catch {
        throw new ConnectError("Your session has expired. Please sign in again.", Code.Unauthenticated);
      }
    }
    return next(req);
  };
}

/** Server interceptor: one SERVER span per RPC, continuing the caller's W3C trace context. */
export function serverTracingInterceptor(): Interceptor {
  return (next) => async (req) => {
    const parent = propagation.extract(context.active(), req.header, {
      get: (headers, key) => headers.get(key) ?? undefined,
      keys: (headers) => [...headers.keys()],
    });
    const span = tracer.startSpan(
      `${req.service.typeName}/${req.method.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: { "rpc.system": "connect_rpc", "rpc.service": req.service.typeName, "rpc.method": req.method.name },
      },
      parent,
    );
    try {
      return await context.with(trace.setSpan(parent, span), () => next(req));
    } catch (error) {
      const connectError = ConnectError.from(error);
      span.setAttribute("rpc.connect_rpc.error_code", Code[connectError.code] ?? "unknown");
      span.setStatus({ code: SpanStatusCode.ERROR, message: connectError.rawMessage });
      throw error;
    } finally {
      span.end();
    }
  };
}

/** Client interceptor: injects the active trace context (traceparent) into outgoing RPCs. */
export function clientTracingInterceptor(): Interceptor {
  return (next) => (req) => {
    propagation.inject(context.active(), req.header, { set: (headers, key, value) => headers.set(key, value) });
    return next(req);
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
