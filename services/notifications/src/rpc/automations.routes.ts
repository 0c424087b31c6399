import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { AutomationsService } from "@crafter/proto/crafter/notifications/v1/automations_pb";
import type { Run } from "../store/automation-run.repository";
import {
  type Deps as AutomationsDeps,
  type AutomationView,
  activateAutomation,
  createAutomation,
  createFromTemplate,
  deleteAutomation,
  getAutomation,
  listAutomations,
  listAutomationTemplates,
  listRuns,
  pauseAutomation,
  updateAutomation,
} from "../usecases/automations";

const ts = (date: Date | null | undefined) => (date ? timestampFromDate(new Date(date)) : undefined);

function toAutomation(a: AutomationView) {
  return {
    automationId: a.id,
    projectId: a.projectId,
    name: a.name,
    status: a.status,
    triggerJson: JSON.stringify(a.trigger),
    stepsJson: JSON.stringify(a.steps),
    stats: a.stats,
    createdAt: ts(a.createdAt),
    updatedAt: ts(a.updatedAt),
  };
}

function toRun(r: Run) {
  return {
    runId: r.id,
    automationId: r.automationId,
    automationName: r.automationName,
    contactId: r.contactId,
    email: r.email,
    status: r.status,
    currentStepId: r.currentStepId,
    startedAt: ts(r.startedAt),
    endedAt: ts(r.endedAt),
    steps: r.steps.map((s) => ({ stepId: s.stepId, kind: s.kind, status: s.status, detail: s.detail, at: ts(s.at) })),
  };
}

/** The AutomationsService handlers (proto/crafter/notifications/v1/automations.proto). */
export function automationsRoutes(deps: AutomationsDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(AutomationsService, {
      async listAutomations(req, ctx) {
        const page = await listAutomations(deps, callerOf(ctx), req);
        return {
          automations: page.items.map(toAutomation),
          count: page.total,
          currentPage: page.page,
          totalPages: page.totalPages,
        };
      },
      async getAutomation(req, ctx) {
        return { automation: toAutomation(await getAutomation(deps, callerOf(ctx), req)) };
      },
      async createAutomation(req, ctx) {
        return { automation: toAutomation(await createAutomation(deps, callerOf(ctx), req)) };
      },
      async updateAutomation(req, ctx) {
        return { automation: toAutomation(await updateAutomation(deps, callerOf(ctx), req)) };
      },
      async deleteAutomation(req, ctx) {
        await deleteAutomation(deps, callerOf(ctx), req);
        return {};
      },
      async activateAutomation(req, ctx) {
        return { automation: toAutomation(await activateAutomation(deps, callerOf(ctx), req)) };
      },
      async pauseAutomation(req, ctx) {
        return { automation: toAutomation(await pauseAutomation(deps, callerOf(ctx), req)) };
      },
      async listAutomationTemplates() {
        return {
          templates: listAutomationTemplates().map((t) => ({
            templateId: t.id,
            name: t.name,
            description: t.description,
            triggerJson: JSON.stringify(t.trigger),
            stepsJson: JSON.stringify(t.steps),
          })),
        };
      },
      async createAutomationFromTemplate(req, ctx) {
        return { automation: toAutomation(await createFromTemplate(deps, callerOf(ctx), req)) };
      },
      async listAutomationRuns(req, ctx) {
        const page = await listRuns(deps, callerOf(ctx), req);
        return { runs: page.items.map(toRun), count: page.total, currentPage: page.page, totalPages: page.totalPages };
      },
    });
  };
}
