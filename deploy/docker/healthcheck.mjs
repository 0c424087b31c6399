#!/usr/bin/env node
// Docker HEALTHCHECK of a Crafter image (Kubernetes uses its native grpc/httpGet probes instead):
//   node healthcheck.mjs grpc   grpc.health.v1.Health/Check on 127.0.0.1:$PORT (Connect protocol, JSON over h2c)
//   node healthcheck.mjs http   GET http://127.0.0.1:$PORT/healthz
// Exits 0 when the service works (SERVING: its Kafka consumers joined their group and its outbox relay ran
// once; services/kit/src/rpc/server.ts), 1 otherwise (what Docker expects), within 3 seconds.
import http2 from "node:http2";

// The image sets HEALTHCHECK_MODE from its PROTOCOL build argument (Dockerfile).
const mode = process.argv[2] ?? process.env.HEALTHCHECK_MODE ?? "grpc";
const port = Number(process.env.PORT);
const TIMEOUT_MS = 3000;

function fail(reason) {
  console.error(`unhealthy: ${reason}`);
  process.exit(1);
}

if (!Number.isInteger(port) || port <= 0) fail("PORT is not set");
setTimeout(() => fail(`no answer within ${TIMEOUT_MS} ms`), TIMEOUT_MS).unref();

if (mode === "http") {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch((error) => fail(error.message));
  if (!response.ok) fail(`/healthz answered ${response.status}`);
  process.exit(0);
} else if (mode === "grpc") {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", (error) => fail(error.message));
  const request = session.request({
    ":method": "POST",
    ":path": "/grpc.health.v1.Health/Check",
    "content-type": "application/json",
  });
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("error", (error) => fail(error.message));
  request.on("end", () => {
    session.close();
    let status;
    try {
      status = JSON.parse(body).status;
    } catch {
      fail(`not a health answer: ${body.slice(0, 200)}`);
    }
    if (status !== "SERVING") fail(`status ${status}`);
    process.exit(0);
  });
  request.end("{}");
} else {
  fail(`unknown mode ${mode} (grpc or http)`);
}
