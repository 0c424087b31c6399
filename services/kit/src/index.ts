// @crafter/kit: the one shared runtime of Crafter services. One way to do each thing.

// Pure validation lives in @crafter/validation (shared with the web); services import it from here.
export * from "@crafter/validation";
export * from "./caller";
export * from "./config/config";
export * from "./crypto/secret-box";
export * from "./data/idioms";
export * from "./data/mongo";
export * from "./data/repository";
export * from "./errors/app-error";
export * from "./errors/codes";
export * from "./events/consumer";
export * from "./events/kafka";
export * from "./events/outbox";
export * from "./events/publisher";
export * from "./events/topics";
export * from "./jobs/job-queue";
export * from "./logger/logger";
export * from "./net/outbound";
export * from "./net/provider-http";
export * from "./redis/denylist";
export * from "./redis/pacer";
export * from "./redis/redis";
export * from "./redis/view-version";
export * from "./rpc/access";
export * from "./rpc/caller";
export * from "./rpc/client";
export * from "./rpc/errors";
export * from "./rpc/identity";
export * from "./rpc/interceptors";
export * from "./rpc/jwks";
export * from "./rpc/server";
export * from "./rpc/service-credentials";
export * from "./service";
export * from "./telemetry/job-queues";
export * from "./telemetry/metrics";
export * from "./telemetry/telemetry";
