import type { HandlerContext } from "@connectrpc/connect";
import type { Caller } from "../caller";
import { kAccessToken, requireUser } from "./identity";

/**
 * The caller of this RPC, for the use cases (routes only).
 * @throws ConnectError Unauthenticated when the call carried no valid access token.
 */
export function callerOf(ctx: HandlerContext): Caller {
  const user = requireUser(ctx);
  return {
    userId: user.userId,
    role: user.role,
    token: ctx.values.get(kAccessToken),
    signal: ctx.signal,
    service: undefined,
  };
}
