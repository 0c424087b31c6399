import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { type AccessTokenVerifier, appError, unauthenticatedUnlessOutage } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { Clients } from "../clients";
import type { ActingResolver } from "../http/acting";
import { accessTokenFrom } from "../http/session";

/**
 * `/rpc`: the browser's Connect endpoint for streams (DESIGN section 1). It authenticates with the
 * session cookie (or a bearer token) and relays WorkflowsService.CompleteStep and RunAction to
 * the workflows service message by message; a browser that goes away cancels the generation
 * downstream. In a team member's active project it relays with the member's delegated token (the
 * crafts are the owner's; http/acting.ts).
 */
export function streamRoutes(clients: Clients, verify: AccessTokenVerifier, acting: ActingResolver) {
  /** The caller's token, verified, as call options for the workflows service. */
  const forward = async (ctx: HandlerContext) => {
    const token = accessTokenFrom(ctx.requestHeader.get("authorization"), ctx.requestHeader.get("cookie"));
    if (!token) throw appError("UNAUTHENTICATED");
    const user = await verify(token).catch(unauthenticatedUnlessOutage);
    const { as } = await acting({ userId: user.userId, token }, undefined, "project.write");
    return { headers: as.headers, signal: ctx.signal, timeoutMs: 300_000 };
  };
  return (router: ConnectRouter) =>
    router.service(WorkflowsService, {
      async *completeStep(req, ctx) {
        yield* clients.workflows.completeStep(req, await forward(ctx));
      },
      async *runAction(req, ctx) {
        yield* clients.workflows.runAction(req, await forward(ctx));
      },
    });
}
