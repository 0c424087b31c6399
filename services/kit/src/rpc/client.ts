import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { ServiceCredentials } from "./identity";
import { clientTracingInterceptor } from "./interceptors";

interface BaseClientOptions {
  /** Default deadline of each call, in ms (a call may pass its own `timeoutMs`). */
  timeoutMs: number;
  interceptors?: Interceptor[];
}

/**
 * `as: "user"` (the default): calls carry what their call options give, i.e. the user's access
 * token from `onBehalfOf(…)`, or nothing for public RPCs.
 * `as: "service"`: every call carries this service's own service token (consumers, relays, jobs,
 * background work), unless the call sets `authorization` itself.
 */
export type ServiceClientOptions = BaseClientOptions &
  ({ as?: "user" } | { as: "service"; credentials: ServiceCredentials });

/** Client interceptor: `authorization: Bearer <service token>` on every call that has none. */
function serviceTokenInterceptor(credentials: ServiceCredentials): Interceptor {
  return (next) => async (req) => {
    if (!req.header.has("authorization")) req.header.set("authorization", `Bearer ${await credentials.token()}`);
    return next(req);
  };
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
  const identity = options.as === "service" ? [serviceTokenInterceptor(options.credentials)] : [];
  const transport = createGrpcTransport({
    baseUrl,
    defaultTimeoutMs: options.timeoutMs,
    interceptors: [clientTracingInterceptor(), ...identity, ...(options.interceptors ?? [])],
  });
  return createClient(service, transport);
}
