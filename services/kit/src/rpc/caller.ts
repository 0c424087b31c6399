import type { HandlerContext } from "@connectrpc/connect";
import type { Caller } from "../caller";
import { kAccessToken, kService, kUser, requireUser } from "./identity";

/**
 * The caller of this RPC, for the use cases (routes only): the verified user of a user token, or
 * the calling service of a service token (userId "" — a route that acts for a user the request
 * names passes that id on itself, after the access interceptor allowed it).
 * @throws ConnectError Unauthenticated when the call carried neither a valid user nor service token.
 */
export function callerOf(ctx: HandlerContext): Caller {
  const service = ctx.values.get(kService);
  if (service !== undefined && ctx.values.get(kUser) === undefined) {
    return { userId: "", role: "service", token: undefined, signal: ctx.signal, service };
  }
  const user = requireUser(ctx);
  return {
    userId: user.userId,
    role: user.role,
    token: ctx.values.get(kAccessToken),
    signal: ctx.signal,
    service: undefined,
    ...(user.actorUserId && user.actorUserId !== user.userId ? { actorUserId: user.actorUserId } : {}),
    ...(user.delegatedProjectId ? { delegatedProjectId: user.delegatedProjectId } : {}),
  };
}
