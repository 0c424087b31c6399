import type { ConnectRouter } from "@connectrpc/connect";
import { requireUser } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { completeStep } from "../usecases/complete-step";
import { createCraft } from "../usecases/create-craft";
import type { WorkflowsDeps } from "../usecases/deps";
import { editStep } from "../usecases/edit-step";
import { generateInlineText } from "../usecases/generate-inline-text";
import { getCraft } from "../usecases/get-craft";
import { getHeaders } from "../usecases/get-headers";
import { getResults } from "../usecases/get-results";
import { listCrafts } from "../usecases/list-crafts";
import { renameCraft } from "../usecases/rename-craft";
import { runAction } from "../usecases/run-action";
import { saveCraft } from "../usecases/save-craft";
import { toCraftMessage, toHeadersMessage, toStepEventMessage, toSummaryMessage } from "./mappers";

/** The WorkflowsService handlers: each reads the caller, calls one use case and maps its answer. */
export function routes(deps: WorkflowsDeps) {
  return (router: ConnectRouter) =>
    router.service(WorkflowsService, {
      getHeaders: (_req, ctx) => {
        requireUser(ctx);
        return toHeadersMessage(getHeaders(deps));
      },
      createCraft: async (req, ctx) => ({
        craft: toCraftMessage(await createCraft(deps, ctx, requireUser(ctx).userId, req)),
      }),
      getCraft: async (req, ctx) => ({
        craft: toCraftMessage(await getCraft(deps, requireUser(ctx).userId, req.craftId)),
      }),
      saveCraft: async (req, ctx) => ({ craft: toCraftMessage(await saveCraft(deps, requireUser(ctx).userId, req)) }),
      async *completeStep(req, ctx) {
        for await (const event of completeStep(deps, requireUser(ctx).userId, req, ctx.signal)) {
          yield toStepEventMessage(event);
        }
      },
      editStep: async (req, ctx) => ({ craft: toCraftMessage(await editStep(deps, requireUser(ctx).userId, req)) }),
      renameCraft: async (req, ctx) => ({
        craft: toCraftMessage(await renameCraft(deps, requireUser(ctx).userId, req)),
      }),
      getResults: async (req, ctx) => getResults(deps, requireUser(ctx).userId, req.craftId),
      async *runAction(req, ctx) {
        for await (const event of runAction(deps, requireUser(ctx).userId, req, ctx.signal)) {
          yield toStepEventMessage(event);
        }
      },
      generateInlineText: async (req, ctx) => generateInlineText(deps, requireUser(ctx).userId, req, ctx.signal),
      listCrafts: async (req, ctx) => {
        const page = await listCrafts(deps, requireUser(ctx).userId, req);
        return {
          crafts: page.items.map(toSummaryMessage),
          total: page.total,
          page: page.page,
          totalPages: page.totalPages,
        };
      },
    });
}
