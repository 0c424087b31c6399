import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clientTracingInterceptor } from "./interceptors";

export interface ServiceClientOptions {
  /** Default deadline of each call, in ms (a call may pass its own `timeoutMs`). */
  timeoutMs: number;
  interceptors?: Interceptor[];
}

/**
 * A Connect client speaking gRPC over HTTP/2 to another service, with a default deadline and
 * trace context propagation. One HTTP/2 connection per client, reused across calls.
 */
export function createServiceClient<T extends DescService>(
  service: T,
  baseUrl: string,
  options: ServiceClientOptions,
): Client<T> {
  const transport = createGrpcTransport({
    baseUrl,
    defaultTimeoutMs: options.timeoutMs,
    interceptors: [clientTracingInterceptor(), ...(options.interceptors ?? [])],
  });
  return createClient(service, transport);
}
