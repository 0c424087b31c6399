import { createServer } from "node:http";
import {
  authServiceJwks,
  createAccessTokenVerifier,
  createLogger,
  createRedis,
  loadConfig,
  redisDenylist,
  startTelemetry,
} from "@crafter/kit";
import { createApp } from "./app";
import { createClients } from "./clients";
import { configSchema } from "./config";
import { onClientError } from "./http/client-errors";

let config: ReturnType<typeof loadConfig<typeof configSchema>>;
try {
  config = loadConfig(configSchema);
} catch (error) {
  console.error(`[gateway] ${(error as Error).message}`);
  process.exit(78);
}
const stopTelemetry = startTelemetry("gateway", config);
const logger = createLogger("gateway", config.LOG_LEVEL);
const clients = createClients(config);
// Idempotency-Key records, the token denylist and the per-user read cache's versions (cache/user-views.ts);
// a Redis outage answers Idempotency-Key calls 503 and only loses caching for the others.
const redis = createRedis(config.REDIS_URL, config.CRAFTER_NAMESPACE, logger);
const verify = createAccessTokenVerifier({
  fetchJwks: authServiceJwks(config.AUTH_URL, config.RPC_TIMEOUT_MS),
  issuer: config.JWT_ISSUER,
  audience: config.JWT_AUDIENCE,
  // Sign-out, a revoked family or API key and a password change refuse their tokens at once.
  isDenied: redisDenylist(redis),
});

const server = createServer(createApp(config, clients, verify, redis, logger));
server.keepAliveTimeout = 65_000;
server.on("clientError", onClientError);
server.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, origin: config.PUBLIC_ORIGIN }, "gateway ready");
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "draining");
  const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
  server.close(async () => {
    clearTimeout(force);
    redis.disconnect();
    await stopTelemetry().catch(() => undefined);
    process.exit(0);
  });
  server.closeIdleConnections();
};
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
