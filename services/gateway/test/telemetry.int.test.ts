import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { GatewaySession, repoRoot, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";

// One trace from the browser's call to the Kafka consumers: the stack exports OTLP/HTTP (JSON) to a
// small receiver in this test (scripts/test-stack.sh starts the test stack with
// OTEL_EXPORTER_OTLP_ENDPOINT on a port of its own), and we follow the sign-up's trace id from the
// gateway through the auth RPC and its outbox to the notifications and account consumers.

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | undefined>;
}
interface MetricPoint {
  service: string;
  name: string;
  attributes: Record<string, string | number | undefined>;
}

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

const flatten = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [key, value.stringValue ?? value.doubleValue ?? Number(value.intValue)]),
  );

const spans: Span[] = [];
const points: MetricPoint[] = [];
let receiver: Server;
const endpoint = stackEnv().OTEL_EXPORTER_OTLP_ENDPOINT;

/** Decodes OTLP/HTTP JSON export requests (traces and metrics) into flat records. */
function receive(path: string, body: any) {
  if (path === "/v1/traces") {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(flatten(resourceSpans.resource?.attributes)["service.name"]);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: flatten(span.attributes),
          });
        }
      }
    }
  } else if (path === "/v1/metrics") {
    for (const resourceMetrics of body.resourceMetrics ?? []) {
      const service = String(flatten(resourceMetrics.resource?.attributes)["service.name"]);
      for (const scope of resourceMetrics.scopeMetrics ?? []) {
        for (const metric of scope.metrics ?? []) {
          const data = metric.sum ?? metric.gauge ?? metric.histogram ?? {};
          for (const point of data.dataPoints ?? []) {
            points.push({ service, name: metric.name, attributes: flatten(point.attributes) });
          }
        }
      }
    }
  }
}

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  if (!endpoint) {
    throw new Error(
      "OTEL_EXPORTER_OTLP_ENDPOINT is not set: run scripts/test-stack.sh, or start the test stack with it and source .data/stack/test/stack.env",
    );
  }
  const url = new URL(endpoint);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      if (!String(req.headers["content-type"]).includes("json")) {
        res.writeHead(415).end();
        return;
      }
      receive(req.url ?? "", JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve, reject) => {
    receiver.once("error", reject);
    receiver.listen(Number(url.port), url.hostname, () => resolve());
  });
});

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("telemetry", () => {
  it("follows one sign-up from the browser's traceparent through gateway, auth RPC and Kafka to its three consumers", async () => {
    // The browser's own span: the gateway continues its trace.
    const traceId = randomBytes(16).toString("hex");
    const browserSpanId = randomBytes(8).toString("hex");
    const email = uniqueEmail("traced");
    const signUp = await new GatewaySession().request(
      "POST",
      "/auth/signup",
      { email, password: "correct horse battery" },
      { traceparent: `00-${traceId}-${browserSpanId}-01` },
    );
    expect(signUp.status).toBe(200);
    await waitForEmail(email, "Verify your email");

    const inTrace = () => spans.filter((span) => span.traceId === traceId);
    const byId = (id?: string) => inTrace().find((span) => span.spanId === id);

    const gatewaySpan = await until("the gateway's server span", () =>
      inTrace().find((span) => span.service === "gateway" && span.kind === SERVER),
    );
    expect(gatewaySpan.parentSpanId).toBe(browserSpanId);
    expect(gatewaySpan.attributes["http.route"]).toBe("/auth/signup");

    const authRpc = await until("the auth service's SignUp span", () =>
      inTrace().find((span) => span.service === "auth" && span.kind === SERVER && span.name.endsWith("/SignUp")),
    );
    // gateway server span → gateway client span → auth server span
    const rpcClient = byId(authRpc.parentSpanId);
    expect(rpcClient).toMatchObject({ service: "gateway", kind: CLIENT });

    const consumers = await until("the notifications, account and billing consumer spans", () => {
      const found = ["notifications", "account", "billing"].map((service) =>
        inTrace().find((span) => span.service === service && span.kind === CONSUMER),
      );
      return found.every(Boolean) ? (found as Span[]) : undefined;
    });
    for (const consumer of consumers) {
      expect(consumer.attributes["cloudevents.event_type"]).toBe("crafter.events.v1.UserRegistered");
      // Published by auth's outbox relay, in the context the SignUp call stored with the entry.
      const producer = byId(consumer.parentSpanId);
      expect(producer).toMatchObject({ service: "auth", kind: PRODUCER });
      expect(producer!.parentSpanId).toBeDefined();
      const writer = byId(producer!.parentSpanId);
      expect(writer?.service).toBe("auth");
    }

    // The consumer's log lines carry the same trace (pino mixin: trace_id, span_id).
    const notifications = consumers[0]!;
    const logged = readFileSync(join(repoRoot, ".data/stack/test/notifications.log"), "utf8")
      .split("\n")
      .filter((line) => line.includes(traceId))
      .map((line) => JSON.parse(line) as { msg: string; trace_id: string; span_id: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: "email sent", trace_id: traceId, span_id: notifications.spanId }),
    );

    // Everything in the trace hangs off the browser's span: no orphans.
    for (const span of inTrace()) {
      if (span.parentSpanId !== browserSpanId) expect(byId(span.parentSpanId)).toBeDefined();
    }
    expect(new Set(inTrace().map((span) => span.service))).toEqual(
      new Set(["gateway", "auth", "notifications", "account", "billing"]),
    );
  });

  it("exports the RED and business metrics the dashboards query", async () => {
    const has = (service: string, name: string, match: Record<string, unknown> = {}) =>
      points.some(
        (point) =>
          point.service === service &&
          point.name === name &&
          Object.entries(match).every(([key, value]) => point.attributes[key] === value),
      )
        ? true
        : undefined;
    await until("gateway http.server.request.duration", () =>
      has("gateway", "http.server.request.duration", { "http.route": "/auth/signup" }),
    );
    await until("auth rpc.server.duration for SignUp", () =>
      has("auth", "rpc.server.duration", { "rpc.method": "SignUp", "rpc.code": "OK" }),
    );
    await until("gateway rpc.client.duration", () => has("gateway", "rpc.client.duration"));
    await until("crafter.signups", () => has("auth", "crafter.signups"));
    await until("crafter.events.published", () => has("auth", "crafter.events.published"));
    await until("consumer lag in notifications", () => has("notifications", "crafter.events.consumer.lag"));
    await until("event processing duration in account", () =>
      has("account", "crafter.events.process.duration", { outcome: "ok" }),
    );
    await until("auth outbox backlog", () => has("auth", "crafter.outbox.backlog"));
    // The sign-up's verification email, handed to Mailpit over SMTP (the email alerts' denominator).
    await until("crafter.emails.sent", () => has("notifications", "crafter.emails.sent", { provider: "smtp" }));
  });
});
