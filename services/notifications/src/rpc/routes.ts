import type { KeyObject } from "node:crypto";
import type { ConnectRouter } from "@connectrpc/connect";
import type { NotificationsDeps } from "../deps";
import { approvalsRoutes } from "./approvals.routes";
import { automationsRoutes } from "./automations.routes";
import { calendarRoutes } from "./calendar.routes";
import { campaignsRoutes } from "./campaigns.routes";
import { sendersRoutes } from "./senders.routes";
import { socialRoutes } from "./social.routes";
import { templatesRoutes } from "./templates.routes";
import { webhooksRoutes } from "./webhooks.routes";

/** The notifications service's RPCs, one line per area; the kit's server adds grpc.health.v1. */
export function routes(deps: NotificationsDeps, sendgridKey: KeyObject | null = null): (router: ConnectRouter) => void {
  const areas = [
    campaignsRoutes(deps, sendgridKey),
    automationsRoutes(deps),
    calendarRoutes(deps),
    templatesRoutes(deps),
    sendersRoutes(deps),
    approvalsRoutes(deps),
    webhooksRoutes(deps.webhooks),
    socialRoutes(deps),
  ];
  return (router) => {
    for (const area of areas) area(router);
  };
}
