import { appError } from "@crafter/kit";
import type { CompleteStepResponse, RunActionResponse } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { type Response, Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { toCraft, toCraftSummary, toHeaders } from "../domain/mappers";
import { ok, parseBody } from "../http/envelope";
import { asUser } from "../http/session";

const stepBody = z.object({
  stepName: z.string({ error: "stepName is required" }).min(1, "stepName is required"),
  values: z.record(z.string(), z.unknown()).default({}),
});

type JsonObject = Record<string, never>;

/** Cancels the downstream call when the client goes away before the answer is written. */
function abortOnClose(res: Response): AbortController {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller;
}

/** /api/workflowsV2 (spec section 7): REST over the workflows service. */
export function workflowsRoutes(clients: Clients): Router {
  const router = Router();
  const { workflows } = clients;

  router.get("/headers", async (req, res) => {
    ok(res, toHeaders(await workflows.getHeaders({}, asUser(req))));
  });

  router.get("/", async (req, res) => {
    const query = z
      .object({
        page: z.coerce.number().int().min(1).default(1),
        pageSize: z.coerce.number().int().min(1).max(100).default(20),
        workflowName: z.string().default(""),
        projectId: z.string().default(""),
      })
      .safeParse(req.query);
    if (!query.success) throw appError("CR_ERR_BAD_REQUEST", "page and pageSize must be positive numbers.");
    const list = await workflows.listCrafts(query.data, asUser(req));
    ok(res, {
      crafts: list.crafts.map(toCraftSummary),
      total: list.total,
      page: list.page,
      totalPages: list.totalPages,
    });
  });

  router.post("/", async (req, res) => {
    const body = parseBody(
      z.object({
        workflowName: z.string({ error: "workflowName is required" }).min(1, "workflowName is required"),
        craftName: z.string().max(120).optional(),
        projectId: z.string().optional(),
        profileId: z.string().optional(),
      }),
      req.body,
    );
    const { craft } = await workflows.createCraft(
      {
        workflowName: body.workflowName,
        craftName: body.craftName ?? "",
        projectId: body.projectId ?? "",
        profileId: body.profileId ?? "",
      },
      asUser(req),
    );
    ok(res, toCraft(craft), 201);
  });

  router.get("/:id", async (req, res) => {
    ok(res, toCraft((await workflows.getCraft({ craftId: req.params.id }, asUser(req))).craft));
  });

  router.put("/:id", async (req, res) => {
    const body = parseBody(stepBody, req.body);
    const { craft } = await workflows.saveCraft(
      { craftId: req.params.id, stepName: body.stepName, values: body.values as JsonObject },
      asUser(req),
    );
    ok(res, toCraft(craft));
  });

  router.put("/:id/step/complete", async (req, res) => {
    const body = parseBody(stepBody, req.body);
    let completed: Extract<CompleteStepResponse["event"], { case: "completed" }>["value"] | undefined;
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    for await (const message of workflows.completeStep(
      { craftId: req.params.id, stepName: body.stepName, values: body.values as JsonObject },
      { ...asUser(req), signal: controller.signal, timeoutMs: 300_000 },
    )) {
      if (message.event.case === "completed") completed = message.event.value;
    }
    if (!completed) throw appError("InternalServerError");
    ok(res, { result: completed.result ?? null, meta: completed.meta ?? {}, craft: toCraft(completed.craft) });
  });

  router.get("/:id/:stepName/editStep", async (req, res) => {
    const { craft } = await workflows.editStep({ craftId: req.params.id, stepName: req.params.stepName }, asUser(req));
    ok(res, toCraft(craft));
  });

  router.put("/:id/name", async (req, res) => {
    const body = parseBody(z.object({ name: z.string({ error: "name is required" }) }), req.body);
    const { craft } = await workflows.renameCraft({ craftId: req.params.id, name: body.name }, asUser(req));
    ok(res, toCraft(craft));
  });

  router.get("/:id/results", async (req, res) => {
    const results = await workflows.getResults({ craftId: req.params.id }, asUser(req));
    ok(res, { craftId: results.craftId, craftName: results.craftName, results: results.results });
  });

  router.post("/:id/:stepName/generateInlineText", async (req, res) => {
    const body = parseBody(
      z.object({
        name: z.string({ error: "name is required" }).min(1, "name is required"),
        params: z.record(z.string(), z.unknown()).default({}),
      }),
      req.body,
    );
    const controller = abortOnClose(res);
    const answer = await workflows.generateInlineText(
      { craftId: req.params.id, stepName: req.params.stepName, name: body.name, params: body.params as JsonObject },
      { ...asUser(req), signal: controller.signal, timeoutMs: 300_000 },
    );
    ok(res, { text: answer.text, meta: answer.meta ?? {} });
  });

  // Runs the step's action of that kind without completing the step ("generate more").
  router.post("/:id/:stepName/:actionType", async (req, res) => {
    const body = parseBody(z.object({ params: z.record(z.string(), z.unknown()).default({}) }), req.body ?? {});
    let completed: Extract<RunActionResponse["event"], { case: "completed" }>["value"] | undefined;
    const controller = abortOnClose(res);
    for await (const message of workflows.runAction(
      {
        craftId: req.params.id,
        stepName: req.params.stepName,
        actionType: req.params.actionType,
        params: body.params as JsonObject,
      },
      { ...asUser(req), signal: controller.signal, timeoutMs: 300_000 },
    )) {
      if (message.event.case === "completed") completed = message.event.value;
    }
    if (!completed) throw appError("InternalServerError");
    ok(res, { result: completed.result ?? null, meta: completed.meta ?? {}, craft: toCraft(completed.craft) });
  });

  return router;
}
