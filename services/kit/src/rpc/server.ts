import http2 from "node:http2";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from "@crafter/proto/grpc/health/v1/health_pb";
import type { Logger } from "pino";

export interface RpcServerOptions {
  port: number;
  host?: string;
  /** Registers the service's handlers; `grpc.health.v1.Health` is added by the server. */
  routes: (router: ConnectRouter) => void;
  interceptors?: Interceptor[];
  logger: Logger;
  /**
   * When the service works, not only listens: grpc.health.v1 answers NOT_SERVING until it
   * resolves, then SERVING until `drain`. Default: SERVING at once.
   */
  ready?: Promise<unknown>;
}

export interface RpcServer {
  /** The bound port (useful with port 0). */
  port: number;
  /** Flips grpc.health.v1 to NOT_SERVING, stops accepting, lets in-flight calls finish within `graceMs`. */
  drain(graceMs: number): Promise<void>;
}

/**
 * Serves Connect, gRPC and gRPC-Web over cleartext HTTP/2 (h2c), with `grpc.health.v1.Health`
 * (Check and Watch) for Kubernetes' native grpc probes, `scripts/stack.mjs` and the images'
 * `healthcheck.mjs`: NOT_SERVING until `options.ready` resolves and after `drain`.
 */
export async function startRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  let status = options.ready ? ServingStatus.NOT_SERVING : ServingStatus.SERVING;
  let draining = false;
  const watchers = new Set<() => void>();
  const setStatus = (next: ServingStatus) => {
    status = next;
    for (const wake of watchers) wake();
  };

  const handler = connectNodeAdapter({
    interceptors: options.interceptors,
    routes(router) {
      options.routes(router);
      router.service(Health, {
        check: () => ({ status }),
        async *watch(_req, ctx) {
          let sent: ServingStatus | undefined;
          while (!ctx.signal.aborted) {
            if (status !== sent) {
              sent = status;
              yield { status };
            }
            await new Promise<void>((resolve) => {
              const wake = () => {
                watchers.delete(wake);
                resolve();
              };
              watchers.add(wake);
              ctx.signal.addEventListener("abort", wake, { once: true });
            });
          }
        },
      });
    },
  });

  // Latched: once working, a later consumer rebalance does not take the service out of rotation
  // (nor get it killed by the liveness probe, which asks the same question).
  void options.ready?.then(
    () => {
      if (!draining) setStatus(ServingStatus.SERVING);
    },
    () => undefined,
  );

  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  options.logger.info({ port }, "rpc server listening");

  return {
    port,
    async drain(graceMs) {
      draining = true;
      setStatus(ServingStatus.NOT_SERVING);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // GOAWAY lets clients finish open streams and reconnect elsewhere.
      for (const session of sessions) session.close();
      const timer = setTimeout(() => {
        for (const session of sessions) session.destroy();
      }, graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
