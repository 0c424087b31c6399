import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { type AccessTokenVerifier, appError } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { Clients } from "../clients";
import { accessTokenFrom } from "../http/session";

/**
 * `/rpc`: the browser's Connect endpoint for streams (DESIGN section 1). It authenticates with the
 * session cookie (or a bearer token) and relays WorkflowsService.CompleteStep and RunAction to
 * the workflows service message by message; a browser that goes away cancels the generation
 * downstream.
 */
export function streamRoutes(clients: Clients, verify: AccessTokenVerifier) {
  /** The caller's token, verified, as call options for the workflows service. */
  const forward = async (ctx: HandlerContext) => {
    const token = accessTokenFrom(ctx.requestHeader.get("authorization"), ctx.requestHeader.get("cookie"));
    if (!token) throw appError("UNAUTHENTICATED");
    await verify(token).catch(() => {
      throw appError("UNAUTHENTICATED");
    });
    return { headers: { authorization: `Bearer ${token}` }, signal: ctx.signal, timeoutMs: 300_000 };
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
