import type { RpcAccess } from "@crafter/kit";

/** The notifications service serves no RPC but grpc.health.v1 (public); anything else is refused. */
export const access: RpcAccess = {};
