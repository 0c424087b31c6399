import type { ConnectRouter } from "@connectrpc/connect";
import type { NotificationsDeps } from "../deps";

/**
 * The notifications service has no public RPCs yet (its work is driven by events); the kit's
 * server adds grpc.health.v1 on its own.
 */
export function routes(_deps: NotificationsDeps): (router: ConnectRouter) => void {
  return () => {};
}
