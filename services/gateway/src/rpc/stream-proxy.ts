import type { ConnectRouter } from "@connectrpc/connect";
import { type AccessTokenVerifier, appError } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { Clients } from "../clients";
import { ACCESS_COOKIE } from "../http/session";

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * `/rpc`: the browser's Connect endpoint for streams (DESIGN section 1). It authenticates with the
 * session cookie (or a bearer token) and relays WorkflowsService.CompleteStep to the workflows
 * service message by message; a browser that goes away cancels the generation downstream.
 */
export function streamRoutes(clients: Clients, verify: AccessTokenVerifier) {
  return (router: ConnectRouter) =>
    router.service(WorkflowsService, {
      async *completeStep(req, ctx) {
        const bearer = ctx.requestHeader.get("authorization");
        const token = bearer?.startsWith("Bearer ")
          ? bearer.slice("Bearer ".length)
          : cookieValue(ctx.requestHeader.get("cookie"), ACCESS_COOKIE);
        if (!token) throw appError("UNAUTHENTICATED");
        await verify(token).catch(() => {
          throw appError("UNAUTHENTICATED");
        });
        yield* clients.workflows.completeStep(req, {
          headers: { authorization: `Bearer ${token}` },
          signal: ctx.signal,
          timeoutMs: 300_000,
        });
      },
    });
}
