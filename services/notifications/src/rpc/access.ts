import type { RpcAccess } from "@crafter/kit";
import { approvalsAccess } from "./approvals.access";
import { automationsAccess } from "./automations.access";
import { calendarAccess } from "./calendar.access";
import { campaignsAccess } from "./campaigns.access";
import { sendersAccess } from "./senders.access";
import { templatesAccess } from "./templates.access";
import { webhooksAccess } from "./webhooks.access";

/** Who may call each RPC, one line per area; grpc.health.v1 is public, anything unlisted is refused. */
export const access: RpcAccess = {
  ...campaignsAccess,
  ...automationsAccess,
  ...calendarAccess,
  ...templatesAccess,
  ...sendersAccess,
  ...approvalsAccess,
  ...webhooksAccess,
};
