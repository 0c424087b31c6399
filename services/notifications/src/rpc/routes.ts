import type { ConnectRouter } from "@connectrpc/connect";
import type { NotificationsDeps } from "../deps";
import { templatesRoutes } from "./templates.routes";

/** Every Connect service of notifications, one area per line; the kit adds grpc.health.v1. */
export function routes(deps: NotificationsDeps): (router: ConnectRouter) => void {
  const areas = [templatesRoutes(deps)];
  return (router) => {
    for (const area of areas) area(router);
  };
}
