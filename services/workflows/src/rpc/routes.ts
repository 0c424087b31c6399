import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { WorkflowsDeps } from "../deps";
import { deleteAiSettings, getAiSettings, saveAiSettings, testAiConnection } from "../usecases/ai-settings";
import { assistantChat } from "../usecases/assistant-chat";
import { cloneCraft } from "../usecases/clone-craft";
import { completeStep } from "../usecases/complete-step";
import { createCraft } from "../usecases/create-craft";
import { createStandaloneCraft } from "../usecases/create-standalone-craft";
import { deleteCraft } from "../usecases/delete-craft";
import { editStep } from "../usecases/edit-step";
import { generateInlineText } from "../usecases/generate-inline-text";
import { getCraft } from "../usecases/get-craft";
import { getHeaders } from "../usecases/get-headers";
import { getResults } from "../usecases/get-results";
import { listCrafts } from "../usecases/list-crafts";
import { renameCraft } from "../usecases/rename-craft";
import { runAction } from "../usecases/run-action";
import { saveActionResult } from "../usecases/save-action-result";
import { saveCraft } from "../usecases/save-craft";
import { setFavorite } from "../usecases/set-favorite";
import { writeImagePrompts } from "../usecases/write-image-prompts";
import {
  toAiSettingsMessage,
  toCraftMessage,
  toHeadersMessage,
  toResultChange,
  toStepEventMessage,
  toSummaryMessage,
} from "./mappers";
import { pagesRoutes } from "./pages-routes";

/** The WorkflowsService handlers: each reads the caller, calls one use case and maps its answer. */
export function routes(deps: WorkflowsDeps): (router: ConnectRouter) => void {
  const pages = pagesRoutes(deps);
  return (router: ConnectRouter) => {
    pages(router);
    router.service(WorkflowsService, {
      getHeaders: (_req, ctx) => {
        callerOf(ctx);
        return toHeadersMessage(getHeaders(deps));
      },
      createCraft: async (req, ctx) => ({
        craft: toCraftMessage(await createCraft(deps, callerOf(ctx), req)),
      }),
      getCraft: async (req, ctx) => ({
        craft: toCraftMessage(await getCraft(deps, callerOf(ctx), req.craftId)),
      }),
      saveCraft: async (req, ctx) => ({ craft: toCraftMessage(await saveCraft(deps, callerOf(ctx), req)) }),
      async *completeStep(req, ctx) {
        for await (const event of completeStep(deps, callerOf(ctx), req)) {
          yield toStepEventMessage(event);
        }
      },
      editStep: async (req, ctx) => ({ craft: toCraftMessage(await editStep(deps, callerOf(ctx), req)) }),
      renameCraft: async (req, ctx) => ({
        craft: toCraftMessage(await renameCraft(deps, callerOf(ctx), req)),
      }),
      getResults: async (req, ctx) => getResults(deps, callerOf(ctx), req.craftId),
      async *runAction(req, ctx) {
        for await (const event of runAction(deps, callerOf(ctx), req)) {
          yield toStepEventMessage(event);
        }
      },
      generateInlineText: async (req, ctx) => generateInlineText(deps, callerOf(ctx), req),
      listCrafts: async (req, ctx) => {
        const page = await listCrafts(deps, callerOf(ctx), req);
        return {
          crafts: page.items.map(toSummaryMessage),
          total: page.total,
          page: page.page,
          totalPages: page.totalPages,
        };
      },
      saveActionResult: async (req, ctx) => ({
        craft: toCraftMessage(
          await saveActionResult(deps, callerOf(ctx), {
            craftId: req.craftId,
            stepName: req.stepName,
            ...toResultChange(req),
          }),
        ),
      }),
      cloneCraft: async (req, ctx) => ({
        craft: toCraftMessage(await cloneCraft(deps, callerOf(ctx), req)),
      }),
      setFavorite: async (req, ctx) => ({
        summary: toSummaryMessage(await setFavorite(deps, callerOf(ctx), req)),
      }),
      deleteCraft: async (req, ctx) => deleteCraft(deps, callerOf(ctx), req.craftId),
      createStandaloneCraft: async (req, ctx) => ({
        craft: toCraftMessage(await createStandaloneCraft(deps, callerOf(ctx), req)),
      }),
      writeImagePrompts: async (req, ctx) => {
        return writeImagePrompts(deps, callerOf(ctx), {
          imageGenerationModel: req.imageGenerationModel,
          source: req.source,
        });
      },
      assistantChat: async (req, ctx) => {
        return assistantChat(deps, callerOf(ctx), {
          messages: req.messages,
          profileId: req.profileId,
          craftId: req.craftId,
        });
      },
      getAiSettings: async (_req, ctx) => {
        const { settings, available } = await getAiSettings(deps, callerOf(ctx));
        return { settings: settings ? toAiSettingsMessage(settings) : undefined, available };
      },
      saveAiSettings: async (req, ctx) => ({
        settings: toAiSettingsMessage(await saveAiSettings(deps, callerOf(ctx), req)),
      }),
      deleteAiSettings: async (_req, ctx) => {
        await deleteAiSettings(deps, callerOf(ctx));
        return {};
      },
      testAiConnection: async (req, ctx) => testAiConnection(deps, callerOf(ctx), req),
    });
  };
}
