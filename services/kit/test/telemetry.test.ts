import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { metrics as otelMetrics, SpanKind, trace } from "@opentelemetry/api";
import { node, metrics as sdkMetrics, tracing } from "@opentelemetry/sdk-node";
import { clientTracingInterceptor, serverTracingInterceptor } from "../src/rpc/interceptors";

// The kit's RPC interceptors on a real Connect router (in memory), with OpenTelemetry's own
// in-memory exporters: one trace across client and server, and the RED histograms by code.

const spans = new tracing.InMemorySpanExporter();
const metricExporter = new sdkMetrics.InMemoryMetricExporter(sdkMetrics.AggregationTemporality.CUMULATIVE);
const reader = new sdkMetrics.PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
const tracerProvider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(spans)] });
const meterProvider = new sdkMetrics.MeterProvider({ readers: [reader] });

beforeAll(() => {
  tracerProvider.register();
  otelMetrics.setGlobalMeterProvider(meterProvider);
});

afterAll(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  trace.disable();
  otelMetrics.disable();
});

const transport = createRouterTransport(
  (router) =>
    router.service(AuthService, {
      signOut: () => ({}),
      signIn: () => {
        throw new ConnectError("Wrong email or password.", Code.Unauthenticated);
      },
    }),
  { router: { interceptors: [serverTracingInterceptor()] }, transport: { interceptors: [clientTracingInterceptor()] } },
);
const client = createClient(AuthService, transport);

async function histogramPoints(name: string) {
  await reader.forceFlush();
  const exported = metricExporter.getMetrics().at(-1);
  const metric = exported?.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: { count: number } }[];
}

describe("RPC telemetry", () => {
  it("continues the caller's trace: the server span is the child of the client span", async () => {
    spans.reset();
    await client.signOut({});
    const finished = spans.getFinishedSpans();
    const clientSpan = finished.find((span) => span.kind === SpanKind.CLIENT);
    const serverSpan = finished.find((span) => span.kind === SpanKind.SERVER);
    expect(clientSpan?.name).toBe("crafter.auth.v1.AuthService/SignOut");
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan!.spanContext().traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan!.spanContext().spanId);
  });

  it("records duration histograms by method and code on both sides", async () => {
    await expect(client.signIn({ email: "a@example.test", password: "x" })).rejects.toThrow(ConnectError);
    const server = await histogramPoints("rpc.server.duration");
    expect(server).toContainEqual(
      expect.objectContaining({
        attributes: {
          "rpc.service": "crafter.auth.v1.AuthService",
          "rpc.method": "SignIn",
          "rpc.code": "Unauthenticated",
        },
      }),
    );
    expect(server).toContainEqual(
      expect.objectContaining({ attributes: expect.objectContaining({ "rpc.method": "SignOut", "rpc.code": "OK" }) }),
    );
    const clientSide = await histogramPoints("rpc.client.duration");
    const failed = clientSide.find((point) => point.attributes["rpc.code"] === "Unauthenticated");
    expect(failed?.value.count).toBe(1);
  });

  it("marks the failed server span with the Connect code", async () => {
    spans.reset();
    await client.signIn({ email: "a@example.test", password: "x" }).catch(() => undefined);
    const serverSpan = spans.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER);
    expect(serverSpan?.attributes["rpc.connect_rpc.error_code"]).toBe("Unauthenticated");
    expect(serverSpan?.status.code).toBe(2); // SpanStatusCode.ERROR
  });
});
