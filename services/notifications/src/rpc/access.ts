import type { RpcAccess } from "@crafter/kit";
import { templatesAccess } from "./templates.access";

/** Who may call each RPC of the notifications service, one area per spread; anything else is refused. */
export const access: RpcAccess = {
  ...templatesAccess,
};
