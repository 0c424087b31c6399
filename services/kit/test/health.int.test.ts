import { readFileSync } from "node:fs";
import { join } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { repoRoot, stackEnv } from "@crafter/kit/testing";
import {
  HealthCheckRequestSchema,
  HealthCheckResponse_ServingStatus,
  HealthCheckResponseSchema,
} from "@crafter/proto/grpc/health/v1/health_pb";
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "@jest/globals";
import { parse } from "yaml";

// Kubernetes' native grpc probes and other gRPC tooling speak plain gRPC, not Connect: each
// service must answer grpc.health.v1.Health/Check to a stock @grpc/grpc-js client.

const env = stackEnv();
// Every Connect/gRPC component of services/manifest.yaml, so a new service is probed too.
const manifest = parse(readFileSync(join(repoRoot, "services/manifest.yaml"), "utf8")) as {
  components: Record<string, { protocol?: string }>;
};
const services = Object.entries(manifest.components)
  .filter(([, component]) => (component.protocol ?? "grpc") === "grpc")
  .map(([name]) => [name, env[`${name.toUpperCase()}_URL`]] as const);

function check(url: string): Promise<HealthCheckResponse_ServingStatus> {
  const client = new grpc.Client(new URL(url).host, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      (request: ReturnType<typeof create<typeof HealthCheckRequestSchema>>) =>
        Buffer.from(toBinary(HealthCheckRequestSchema, request)),
      (bytes: Buffer) => fromBinary(HealthCheckResponseSchema, bytes),
      create(HealthCheckRequestSchema, {}),
      { deadline: Date.now() + 5_000 },
      (error, response) => {
        client.close();
        if (error || !response) reject(error ?? new Error("no response"));
        else resolve(response.status);
      },
    );
  });
}

describe("grpc.health.v1 over plain gRPC", () => {
  it.each(services)("%s answers SERVING", async (_name, url) => {
    expect(url).toBeTruthy();
    await expect(check(url!)).resolves.toBe(HealthCheckResponse_ServingStatus.SERVING);
  });
});
