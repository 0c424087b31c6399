import type { ConnectRouter } from "@connectrpc/connect";
import type { NotificationsDeps } from "../deps";
import { automationsRoutes } from "./automations.routes";

/** The Connect services of the notifications service's areas; the kit's server adds grpc.health.v1. */
export function routes(deps: NotificationsDeps): (router: ConnectRouter) => void {
  const areas = [automationsRoutes(deps)];
  return (router) => {
    for (const area of areas) area(router);
  };
}
