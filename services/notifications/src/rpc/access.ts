import type { RpcAccess } from "@crafter/kit";
import { automationsAccess } from "./automations.access";

/** Who may call each RPC of the notifications service's areas (grpc.health.v1 is public). */
export const access: RpcAccess = { ...automationsAccess };
