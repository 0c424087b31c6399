import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import type { JSONWebKeySet } from "jose";
import type { Connection } from "mongoose";
import type { Logger } from "pino";
import type { z } from "zod";
import type { BaseConfig } from "./config/config";
import { loadConfig } from "./config/config";
import { connectMongo, databaseName } from "./data/mongo";
import { type EventHandler, type RunningConsumer, startConsumer } from "./events/consumer";
import { checkTopics, createKafka, ensureTopics, type Kafka, partitionsOf } from "./events/kafka";
import { type OutboxModel, type OutboxRelay, startOutboxRelay } from "./events/outbox";
import { createPublisher, type Publisher } from "./events/publisher";
import { dlqTopic } from "./events/topics";
import { createLogger } from "./logger/logger";
import { redisDenylist } from "./redis/denylist";
import { createRedis, type Redis } from "./redis/redis";
import { accessInterceptor, type RpcAccess } from "./rpc/access";
import { errorInterceptor } from "./rpc/errors";
import type { ServiceCredentials } from "./rpc/identity";
import { loggingInterceptor, serverTracingInterceptor } from "./rpc/interceptors";
import { createIdentityVerifier } from "./rpc/jwks";
import { startRpcServer } from "./rpc/server";
import { authServiceJwks, serviceCredentials } from "./rpc/service-credentials";
import { startTelemetry } from "./telemetry/telemetry";

export interface ServiceContext<C extends BaseConfig> {
  name: string;
  config: C;
  logger: Logger;
  mongo: Connection;
  redis: Redis;
  kafka: Kafka;
  publisher: Publisher;
  /**
   * This service's own service token (name = the service's name, secret = SERVICE_SECRET), for
   * clients built with `createServiceClient(…, { as: "service", credentials })`.
   */
  credentials: ServiceCredentials;
  /** Wakes the outbox relay after a write that added events; a no-op before the relay starts. */
  kick: () => void;
}

export interface ServiceParts {
  /** Registers the service's Connect handlers: `routes(deps)` of src/rpc/routes.ts. */
  routes: (router: ConnectRouter) => void;
  /** Who may call each RPC (src/rpc/access.ts); a method without an entry is refused. */
  access: RpcAccess;
  /**
   * Where the access interceptor gets the JWKS; default: the auth service's GetJwks at AUTH_URL.
   * The auth service gives its own key ring instead of calling itself.
   */
  jwks?: () => Promise<JSONWebKeySet>;
  /** Event handlers, consumed by the group `<namespace>.<service>`. */
  consumers?: { topics: string[]; handlers: EventHandler[] };
  /** Models whose documents carry an outbox; relayed to Kafka. */
  outbox?: OutboxModel[];
  /** Topics this service publishes to; created (with their DLQs) at start. */
  publishes?: string[];
  /**
   * Starts the service's background work (job workers, periodic scans) once its topics exist;
   * not called by `migrate`, which only prepares topics and indexes.
   */
  background?(): Promise<void>;
  onStop?(): Promise<void>;
}

export interface ServiceDefinition<S extends z.ZodType<BaseConfig & { PORT: number }>> {
  name: string;
  configSchema: S;
  setup(ctx: ServiceContext<z.infer<S>>): Promise<ServiceParts>;
}

/**
 * The one main of every service (DESIGN.md section 1): validates config, starts telemetry,
 * connects MongoDB, Redis and Kafka, serves the Connect routes plus grpc.health.v1 on HTTP/2,
 * relays its outbox, consumes its topics, and drains on SIGTERM/SIGINT.
 *
 * `node dist/main.js migrate` runs the same setup, then only creates the service's Kafka topics
 * (with their DLQs, with the manifest's partitions, adding partitions to existing topics) and syncs the MongoDB indexes of every model the setup compiled, and exits:
 * 0 when done, 1 on error. The Helm chart's post-install/post-upgrade Job runs it per service.
 */
export async function runService<S extends z.ZodType<BaseConfig & { PORT: number }>>(
  definition: ServiceDefinition<S>,
): Promise<void> {
  let config: z.infer<S>;
  try {
    config = loadConfig(definition.configSchema);
  } catch (error) {
    console.error(`[${definition.name}] ${(error as Error).message}`);
    process.exit(78); // EX_CONFIG
  }
  const stopTelemetry = startTelemetry(definition.name, config);
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled rejection"));

  const mongo = await connectMongo(config.MONGODB_URL, databaseName(config.CRAFTER_NAMESPACE, definition.name), logger);
  const redis = createRedis(config.REDIS_URL, config.CRAFTER_NAMESPACE, logger);
  const kafka = createKafka(
    config.KAFKA_BROKERS,
    `${config.CRAFTER_NAMESPACE}.${definition.name}`,
    logger,
    config.KAFKA_SESSION_TIMEOUT_MS,
  );
  const publisher = await createPublisher(kafka);

  const credentials = serviceCredentials({
    name: definition.name,
    secret: config.SERVICE_SECRET,
    authUrl: config.AUTH_URL,
    timeoutMs: config.RPC_TIMEOUT_MS,
  });

  let relay: OutboxRelay | undefined;
  const parts = await definition.setup({
    name: definition.name,
    config,
    logger,
    mongo,
    redis,
    kafka,
    publisher,
    credentials,
    kick: () => relay?.kick(),
  });

  checkTopics(definition.name, config.CRAFTER_NAMESPACE, parts.publishes ?? [], parts.consumers?.topics ?? []);
  const topics = [...(parts.publishes ?? []), ...(parts.consumers?.topics ?? [])];
  if (topics.length > 0) {
    const names = [...new Set(topics.flatMap((topic) => [topic, dlqTopic(topic)]))];
    await ensureTopics(
      kafka,
      names.map((topic) => ({ topic, partitions: partitionsOf(config.CRAFTER_NAMESPACE, topic) })),
    );
  }
  if (process.argv[2] === "migrate") {
    let code = 0;
    try {
      await syncAllIndexes(mongo, logger);
      logger.info({ topics: topics.length }, "migrated: topics and indexes in place");
    } catch (error) {
      logger.error({ err: error }, "index sync failed");
      code = 1;
    }
    await parts.onStop?.();
    await publisher.disconnect();
    redis.disconnect();
    await mongo.close();
    await stopTelemetry().catch(() => undefined);
    process.exit(code);
  }
  await parts.background?.();
  if (parts.outbox?.length) {
    relay = startOutboxRelay({ models: parts.outbox, publisher, source: definition.name, logger });
  }
  // Started beside the RPC server, not before it: consume() returns only after the group join,
  // which may wait for a rebalance (up to the session timeout of a killed process's member), and
  // meanwhile the health check answers NOT_SERVING instead of refusing the connection.
  const consumerStarted = parts.consumers ? startConsumerWithRetries(parts.consumers) : undefined;
  async function startConsumerWithRetries(consumers: NonNullable<ServiceParts["consumers"]>) {
    // A broker that has just started may still be electing the group coordinator.
    for (let attempt = 1; ; attempt++) {
      try {
        return await startConsumer({
          kafka,
          groupId: `${config.CRAFTER_NAMESPACE}.${definition.name}`,
          topics: consumers.topics,
          handlers: consumers.handlers,
          connection: mongo,
          publisher,
          logger,
        });
      } catch (error) {
        if (attempt >= 10) throw error;
        logger.warn({ err: error, attempt }, "consumer did not start; retrying");
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  }

  const verifyIdentity = createIdentityVerifier({
    fetchJwks: parts.jwks ?? authServiceJwks(config.AUTH_URL, config.RPC_TIMEOUT_MS),
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isDenied: redisDenylist(redis),
  });
  // Outermost first. The error interceptor sits outside the access interceptor so the AppErrors of
  // both the access check and the handlers become ConnectErrors before logging and tracing see them.
  const interceptors: Interceptor[] = [
    serverTracingInterceptor(),
    loggingInterceptor(logger),
    errorInterceptor(),
    accessInterceptor(parts.access, verifyIdentity),
  ];
  // Ready means working: the consumers hold their partitions and the outbox relay has published
  // what was waiting. Until then grpc.health.v1 answers NOT_SERVING, so the stack, the probes and
  // the load balancer wait, while the RPCs already answer.
  const progress = { consumerJoined: !consumerStarted, outboxRelayed: !relay };
  const ready = Promise.all([
    consumerStarted
      ?.then((started) => started.joined)
      .then(() => {
        progress.consumerJoined = true;
      }),
    relay?.firstPass.then(() => {
      progress.outboxRelayed = true;
    }),
  ]);
  const server = await startRpcServer({
    port: config.PORT,
    host: config.HOST,
    routes: parts.routes,
    interceptors,
    logger,
    ready,
  });
  const waiting = setInterval(
    () => logger.warn(progress, "not ready yet: waiting for the consumer group join or the first outbox pass"),
    15_000,
  );
  void ready.then(
    () => {
      clearInterval(waiting);
      logger.info({ port: server.port }, `${definition.name} ready`);
    },
    () => clearInterval(waiting),
  );
  // A consumer that could not start at all ends the process, as before the server started.
  const consumer: RunningConsumer | undefined = await consumerStarted;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(waiting);
    logger.info({ signal }, "draining");
    await server.drain(config.SHUTDOWN_GRACE_MS);
    await consumer?.disconnect();
    await relay?.stop();
    await parts.onStop?.();
    await publisher.disconnect();
    redis.disconnect();
    await mongo.close();
    await stopTelemetry().catch(() => undefined);
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

/**
 * Makes the indexes of every model compiled on `connection` match their schemas (mongoose
 * syncIndexes: builds missing ones, drops ones no schema declares, never `_id`).
 * @returns the names of the dropped indexes per model.
 */
export async function syncAllIndexes(connection: Connection, logger: Logger): Promise<Record<string, string[]>> {
  const dropped: Record<string, string[]> = {};
  for (const model of Object.values(connection.models)) {
    dropped[model.modelName] = await model.syncIndexes();
    logger.info({ model: model.modelName, dropped: dropped[model.modelName] }, "indexes synced");
  }
  return dropped;
}
