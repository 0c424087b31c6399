import type { AccessTokenVerifier } from "@crafter/kit";
import { Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { toActiveProjectInfo, toCheckList, toProfile, toProject, toUserInfo } from "../domain/mappers";
import { ok, parseBody } from "../http/envelope";
import { asUser, requireSession } from "../http/session";
import { aiToolsRoutes } from "./ai-tools.routes";
import { apiKeyRoutes } from "./api-keys.routes";
import { workflowsRoutes } from "./workflows.routes";

const RECENT_CRAFTS = 5;

/** The newest crafts of the active project (activeProjectInfo.crafts); none without a project. */
async function recentCrafts(clients: Clients, projectId: string | undefined, as: ReturnType<typeof asUser>) {
  if (!projectId) return [];
  return (await clients.workflows.listCrafts({ projectId, page: 1, pageSize: RECENT_CRAFTS }, as)).crafts;
}

const projectBody = z.object({
  name: z.string({ error: "Business name is required" }),
  description: z.string({ error: "Description is required" }),
  audience: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  websiteUrl: z.string().optional(),
});

/** /api: everything behind a session (spec section 7). */
export function apiRoutes(clients: Clients, verify: AccessTokenVerifier): Router {
  const router = Router();
  router.use(requireSession(verify, clients));
  router.use("/settings/apiKeys", apiKeyRoutes(clients));

  router.get("/app/initial", async (req, res) => {
    const as = asUser(req);
    const [userInfo, credits, flags, settings, active] = await Promise.all([
      clients.account.getUserInfo({}, as),
      clients.billing.getCredits({}, as),
      clients.account.getFlags({}, as),
      clients.account.getSettings({}, as),
      clients.projects.getActiveProject({}, as),
    ]);
    const crafts = await recentCrafts(clients, active.projectId, as);
    ok(res, {
      userInfo: toUserInfo(userInfo.userInfo, credits),
      featureFlag: {
        enabledFeatures: flags.enabledFeatures,
        disabledFeatures: flags.disabledFeatures,
        allFeatures: flags.allFeatures,
      },
      activeProjectInfo: toActiveProjectInfo(active, crafts),
      userSettings: { settings: settings.settings ?? {} },
    });
  });

  router.get("/user/account", async (req, res) => {
    const as = asUser(req);
    const [userInfo, credits] = await Promise.all([
      clients.account.getUserInfo({}, as),
      clients.billing.getCredits({}, as),
    ]);
    ok(res, toUserInfo(userInfo.userInfo, credits));
  });

  router.get("/flags/user", async (req, res) => {
    res.setHeader("cache-control", "no-store");
    const flags = await clients.account.getFlags({}, asUser(req));
    ok(res, {
      enabledFeatures: flags.enabledFeatures,
      disabledFeatures: flags.disabledFeatures,
      allFeatures: flags.allFeatures,
    });
  });

  router.get("/userSettings/settings", async (req, res) => {
    ok(res, { settings: (await clients.account.getSettings({}, asUser(req))).settings ?? {} });
  });

  router.put("/userSettings/settings", async (req, res) => {
    const body = parseBody(z.record(z.string(), z.unknown(), { error: "Settings must be an object" }), req.body);
    // Accept both the bare settings object and { settings: {...} }.
    const settings = (typeof body.settings === "object" && body.settings ? body.settings : body) as Record<
      string,
      never
    >;
    ok(res, { settings: (await clients.account.updateSettings({ settings }, asUser(req))).settings ?? {} });
  });

  router.get("/projects", async (req, res) => {
    const { projects } = await clients.projects.listProjects({}, asUser(req));
    ok(res, { projects: projects.map(toProject) });
  });

  router.post("/projects/createProject", async (req, res) => {
    const body = parseBody(projectBody, req.body);
    const created = await clients.projects.createProject(
      {
        name: body.name,
        description: body.description,
        audience: body.audience ?? "",
        keywords: body.keywords ?? [],
        websiteUrl: body.websiteUrl ?? "",
      },
      asUser(req),
    );
    ok(res, { project: toProject(created.project), profile: toProfile(created.profile) }, 201);
  });

  router.get("/projects/active-project", async (req, res) => {
    const as = asUser(req);
    const active = await clients.projects.getActiveProject({}, as);
    const crafts = await recentCrafts(clients, active.projectId, as);
    ok(res, toActiveProjectInfo(active, crafts));
  });

  router.put("/projects/active-project", async (req, res) => {
    const body = parseBody(
      z.object({
        currentActiveId: z.string({ error: "currentActiveId is required" }),
        newActiveId: z.string({ error: "newActiveId is required" }).min(1, "newActiveId is required"),
      }),
      req.body,
    );
    const active = await clients.projects.setActiveProject(body, asUser(req));
    ok(res, { projectId: active.projectId, projectTitle: active.projectTitle, profile: toProfile(active.profile) });
  });

  router.get("/projects/check-list/:id", async (req, res) => {
    const { items } = await clients.projects.getCheckList({ projectId: req.params.id }, asUser(req));
    ok(res, { checkList: toCheckList(items) });
  });

  router.use("/workflowsV2", workflowsRoutes(clients));
  router.use(aiToolsRoutes(clients));
  return router;
}
