import { appError } from "@crafter/kit";
import type { CompleteStepResponse, RunActionResponse } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { z } from "zod";
import { toCraft, toCraftSummary, toHeaders } from "../domain/mappers";
import { abortOnClose } from "../http/files";
import { defineRoute, type RouteDef } from "../http/registry";
import {
  craftName,
  craftSchema,
  craftSummarySchema,
  id,
  jsonObject,
  requiredText,
  runSchema,
  stepName,
  workflowName,
} from "../http/schemas";
import type { RouteDeps } from "./deps";

type JsonObject = Record<string, never>;

/** Generation can take the provider's whole timeout (retries included). */
const GENERATION_TIMEOUT_MS = 300_000;

const craftParams = z.object({ id: id("id") });
const stepParams = z.object({ id: id("id"), stepName });
const stepBody = z.object({ stepName, values: jsonObject("values").default({}) });
const empty = z.object({});

const resultBody = z.object({
  resultId: z.string({ error: "resultId must be text" }).max(64, "resultId is too long").optional(),
  content: z.string({ error: "content must be text" }).max(200_000, "The content is too long.").optional(),
  sections: z
    .record(
      z.string().max(200),
      z.array(z.string().max(200_000), { error: "Each section must be a list of texts." }).max(1000),
      { error: "sections must be an object" },
    )
    .optional(),
  data: jsonObject("data").optional(),
  selected: z.boolean({ error: "selected must be true or false" }).optional(),
  delete: z.boolean({ error: "delete must be true or false" }).optional(),
});

const listQuery = z.object({
  page: z.coerce
    .number({ error: "page must be a whole number from 1 to 100000" })
    .int("page must be a whole number from 1 to 100000")
    .min(1, "page must be a whole number from 1 to 100000")
    .max(100_000, "page must be a whole number from 1 to 100000")
    .default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a whole number from 1 to 100" })
    .int("pageSize must be a whole number from 1 to 100")
    .min(1, "pageSize must be a whole number from 1 to 100")
    .max(100, "pageSize must be a whole number from 1 to 100")
    .default(20),
  workflowName: z.string({ error: "workflowName must be text" }).max(100, "workflowName is too long").default(""),
  projectId: z.string({ error: "projectId must be text" }).max(64, "projectId is too long").default(""),
  favorites: z.enum(["true", "false"], { error: "favorites must be true or false" }).default("false"),
  q: z.string({ error: "q must be text" }).max(200, "Search with at most 200 characters.").default(""),
  state: z
    .enum(["NotStarted", "InProgress", "Completed"], { error: "state must be NotStarted, InProgress or Completed" })
    .optional(),
  profileId: z.string({ error: "profileId must be text" }).max(64, "profileId is too long").default(""),
  sort: z.enum(["created", "updated"], { error: "sort must be created or updated" }).default("created"),
});

const previewQuery = z.object({
  workflowName,
  projectId: z.string({ error: "projectId must be text" }).max(64, "projectId is too long").default(""),
  profileId: z.string({ error: "profileId must be text" }).max(64, "profileId is too long").default(""),
  standalone: z.enum(["true", "false"], { error: "standalone must be true or false" }).default("false"),
});

const CRAFT_ERRORS = ["NOT_FOUND"] as const;
const RUN_ERRORS = [
  "NOT_FOUND",
  "CONFLICT",
  "TooManyRunningActions",
  "ReachedMaxResults",
  "ConflictingInputError",
  "NEED_SUBSCRIPTION",
  "NOT_ENOUGH_CREDITS",
  "RATE_LIMITED",
  "InvalidUrl",
  "UnableToReadWebPage",
  "CR_ERR_WEBSITE_AUDIT",
  "NoKeywordDataFound",
  "NoCompetitorDataFound",
  "AI_PROVIDER_ERROR",
  "InternalServerError",
] as const;

/** /api/workflowsV2 (spec section 7): REST over the workflows service. */
export function workflowsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { workflows } = clients;
  const W = "/api/workflowsV2";
  return [
    defineRoute({
      method: "get",
      path: `${W}/headers`,
      tag: "workflows",
      summary: "The workflows the user may craft with",
      auth: "session",
      actsInProject: true,
      response: z.looseObject({
        names: z.array(z.string()),
        headers: z.array(z.looseObject({ name: z.string() })),
        defaultVersions: z.looseObject({}),
        toolsList: z.array(z.string()),
        newToolsList: z.array(z.string()),
      }),
      handler: async ({ as }) => toHeaders(await workflows.getHeaders({}, as)),
    }),
    defineRoute({
      method: "get",
      path: W,
      tag: "workflows",
      summary:
        "List crafts, newest first by creation or last change; search (q: every word in the name or text) and filters",
      auth: "session",
      actsInProject: true,
      query: listQuery,
      response: z.object({
        crafts: z.array(craftSummarySchema),
        total: z.number(),
        page: z.number(),
        totalPages: z.number(),
      }),
      handler: async ({ query, as, project }) => {
        // A team member sees the owner's crafts of the shared project only, never the owner's others.
        const projectId = query.projectId || (project.delegated ? project.projectId : "");
        const list = await workflows.listCrafts(
          { ...query, projectId, query: query.q, state: query.state ?? "", favorites: query.favorites === "true" },
          as,
        );
        return {
          crafts: list.crafts.map(toCraftSummary),
          total: list.total,
          page: list.page,
          totalPages: list.totalPages,
        };
      },
    }),
    defineRoute({
      method: "get",
      path: `${W}/new`,
      tag: "workflows",
      summary: "A new craft as it would start (prefilled), not stored: craftId is empty until it is created",
      auth: "session",
      actsInProject: true,
      query: previewQuery,
      response: craftSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ query, as }) => {
        const { craft } =
          query.standalone === "true"
            ? await workflows.createStandaloneCraft({ workflowName: query.workflowName, preview: true }, as)
            : await workflows.createCraft(
                {
                  workflowName: query.workflowName,
                  projectId: query.projectId,
                  profileId: query.profileId,
                  preview: true,
                },
                as,
              );
        return toCraft(craft);
      },
    }),
    defineRoute({
      method: "post",
      path: W,
      tag: "workflows",
      summary: "Create a craft",
      auth: "session",
      actsInProject: true,
      body: z.object({
        workflowName,
        craftName: craftName.optional(),
        projectId: z.string({ error: "projectId must be text" }).max(64, "projectId is too long").optional(),
        profileId: z.string({ error: "profileId must be text" }).max(64, "profileId is too long").optional(),
      }),
      response: craftSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as }) => {
        const { craft } = await workflows.createCraft(
          {
            workflowName: body.workflowName,
            craftName: body.craftName ?? "",
            projectId: body.projectId ?? "",
            profileId: body.profileId ?? "",
          },
          as,
        );
        return toCraft(craft);
      },
    }),
    defineRoute({
      method: "post",
      path: `${W}/standalone`,
      tag: "workflows",
      summary: "Create a craft without a project",
      auth: "session",
      actsInProject: true,
      body: z.object({ workflowName, craftName: craftName.optional() }),
      response: craftSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as }) => {
        const { craft } = await workflows.createStandaloneCraft(
          { workflowName: body.workflowName, craftName: body.craftName ?? "" },
          as,
        );
        return toCraft(craft);
      },
    }),
    defineRoute({
      method: "get",
      path: `${W}/{id}`,
      tag: "workflows",
      summary: "A craft",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      response: craftSchema,
      errors: CRAFT_ERRORS,
      handler: async ({ params, as }) => toCraft((await workflows.getCraft({ craftId: params.id }, as)).craft),
    }),
    defineRoute({
      method: "put",
      path: `${W}/{id}`,
      tag: "workflows",
      summary: "Save a step's values without completing it",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: stepBody,
      response: craftSchema,
      errors: ["NOT_FOUND", "CONFLICT", "TooManyRunningActions"],
      handler: async ({ params, body, as }) => {
        const { craft } = await workflows.saveCraft(
          { craftId: params.id, stepName: body.stepName, values: body.values as JsonObject },
          as,
        );
        return toCraft(craft);
      },
    }),
    defineRoute({
      method: "put",
      path: `${W}/{id}/step/complete`,
      tag: "workflows",
      summary: "Complete a step: validate, run its action, open the next",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: stepBody,
      response: runSchema,
      errors: RUN_ERRORS,
      handler: async ({ res, params, body, as }) => {
        let completed: Extract<CompleteStepResponse["event"], { case: "completed" }>["value"] | undefined;
        const controller = abortOnClose(res);
        for await (const message of workflows.completeStep(
          // Answered whole: no deltas, and the offline engine does not pace its text for a reader.
          { craftId: params.id, stepName: body.stepName, values: body.values as JsonObject, buffered: true },
          { ...as, signal: controller.signal, timeoutMs: GENERATION_TIMEOUT_MS },
        )) {
          if (message.event.case === "completed") completed = message.event.value;
        }
        if (!completed) throw appError("InternalServerError");
        return { result: completed.result ?? null, meta: completed.meta ?? {}, craft: toCraft(completed.craft) };
      },
    }),
    defineRoute({
      method: "get",
      path: `${W}/{id}/{stepName}/editStep`,
      tag: "workflows",
      summary: "Read a craft before editing one of its steps (changes nothing; POST edits)",
      auth: "session",
      actsInProject: true,
      params: stepParams,
      response: craftSchema,
      errors: CRAFT_ERRORS,
      handler: async ({ params, as }) => {
        const craft = toCraft((await workflows.getCraft({ craftId: params.id }, as)).craft);
        if (!craft.steps.some((step) => (step as { name?: unknown }).name === params.stepName)) {
          throw appError("NOT_FOUND", "No such step in this craft.");
        }
        return craft;
      },
    }),
    defineRoute({
      method: "post",
      path: `${W}/{id}/{stepName}/editStep`,
      tag: "workflows",
      summary: "Reopen a completed step for editing (moves the craft back to it)",
      auth: "session",
      actsInProject: true,
      params: stepParams,
      body: empty,
      response: craftSchema,
      errors: ["NOT_FOUND", "CONFLICT", "TooManyRunningActions"],
      handler: async ({ params, as }) =>
        toCraft((await workflows.editStep({ craftId: params.id, stepName: params.stepName }, as)).craft),
    }),
    defineRoute({
      method: "put",
      path: `${W}/{id}/name`,
      tag: "workflows",
      summary: "Rename a craft",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: z.object({ name: requiredText("Name must be 1 to 120 characters.", 120) }),
      response: craftSchema,
      errors: CRAFT_ERRORS,
      handler: async ({ params, body, as }) =>
        toCraft((await workflows.renameCraft({ craftId: params.id, name: body.name }, as)).craft),
    }),
    defineRoute({
      method: "put",
      path: `${W}/{id}/{stepName}/saveOrUpdateActionResult`,
      tag: "workflows",
      summary: "Edit, select, delete or add a result of a step",
      auth: "session",
      actsInProject: true,
      params: stepParams,
      body: resultBody,
      response: craftSchema,
      errors: ["NOT_FOUND", "CONFLICT", "TooManyRunningActions", "ReachedMaxResults"],
      handler: async ({ params, body, as }) => {
        const { craft } = await workflows.saveActionResult(
          {
            craftId: params.id,
            stepName: params.stepName,
            resultId: body.resultId ?? "",
            content: body.content,
            sections: body.sections,
            data: body.data as JsonObject | undefined,
            selected: body.selected,
            delete: body.delete ?? false,
          },
          as,
        );
        return toCraft(craft);
      },
    }),
    defineRoute({
      method: "post",
      path: `${W}/{id}/cloneWorkflow`,
      tag: "workflows",
      summary: "Copy a craft",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: z.object({ craftName: craftName.optional() }),
      response: craftSchema,
      status: 201,
      idempotent: true,
      errors: CRAFT_ERRORS,
      handler: async ({ params, body, as }) =>
        toCraft((await workflows.cloneCraft({ craftId: params.id, craftName: body.craftName ?? "" }, as)).craft),
    }),
    defineRoute({
      method: "put",
      path: `${W}/{id}/favorite`,
      tag: "workflows",
      summary: "Mark or unmark a craft as a favorite",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: z.object({ favorite: z.boolean({ error: "favorite must be true or false" }) }),
      response: craftSummarySchema,
      errors: CRAFT_ERRORS,
      handler: async ({ params, body, as }) =>
        toCraftSummary((await workflows.setFavorite({ craftId: params.id, favorite: body.favorite }, as)).summary),
    }),
    defineRoute({
      method: "delete",
      path: `${W}/{id}`,
      tag: "workflows",
      summary: "Delete a craft",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: empty,
      response: z.object({ craftId: z.string() }),
      errors: ["NOT_FOUND", "TooManyRunningActions"],
      handler: async ({ params, as }) => ({
        craftId: (await workflows.deleteCraft({ craftId: params.id }, as)).craftId,
      }),
    }),
    defineRoute({
      method: "get",
      path: `${W}/{id}/results`,
      tag: "workflows",
      summary: "A craft's results",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      response: z.object({ craftId: z.string(), craftName: z.string(), results: z.array(z.looseObject({})) }),
      errors: CRAFT_ERRORS,
      handler: async ({ params, as }) => {
        const results = await workflows.getResults({ craftId: params.id }, as);
        return { craftId: results.craftId, craftName: results.craftName, results: results.results };
      },
    }),
    defineRoute({
      method: "post",
      path: `${W}/{id}/{stepName}/generateInlineText`,
      tag: "workflows",
      summary: "Write inline text for a step; nothing is saved",
      auth: "session",
      actsInProject: true,
      params: stepParams,
      body: z.object({
        name: z.string({ error: "name is required" }).min(1, "name is required").max(100, "name is too long"),
        params: jsonObject("params").default({}),
      }),
      response: z.object({ text: z.string(), meta: z.looseObject({}) }),
      errors: RUN_ERRORS,
      handler: async ({ res, params, body, as }) => {
        const controller = abortOnClose(res);
        const answer = await workflows.generateInlineText(
          { craftId: params.id, stepName: params.stepName, name: body.name, params: body.params as JsonObject },
          { ...as, signal: controller.signal, timeoutMs: GENERATION_TIMEOUT_MS },
        );
        return { text: answer.text, meta: answer.meta ?? {} };
      },
    }),
    defineRoute({
      method: "post",
      path: `${W}/{id}/{stepName}/{actionType}`,
      tag: "workflows",
      summary: "Run a step's action without completing the step (generate more)",
      auth: "session",
      actsInProject: true,
      params: z.object({
        id: id("id"),
        stepName,
        actionType: z.string().min(1, "actionType is required").max(100, "actionType is too long"),
      }),
      body: z.object({ params: jsonObject("params").default({}) }),
      response: runSchema,
      errors: RUN_ERRORS,
      handler: async ({ res, params, body, as }) => {
        let completed: Extract<RunActionResponse["event"], { case: "completed" }>["value"] | undefined;
        const controller = abortOnClose(res);
        for await (const message of workflows.runAction(
          {
            craftId: params.id,
            stepName: params.stepName,
            actionType: params.actionType,
            params: body.params as JsonObject,
            buffered: true,
          },
          { ...as, signal: controller.signal, timeoutMs: GENERATION_TIMEOUT_MS },
        )) {
          if (message.event.case === "completed") completed = message.event.value;
        }
        if (!completed) throw appError("InternalServerError");
        return { result: completed.result ?? null, meta: completed.meta ?? {}, craft: toCraft(completed.craft) };
      },
    }),
  ];
}
