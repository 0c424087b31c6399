import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { TemplatesService } from "@crafter/proto/crafter/notifications/v1/templates_pb";
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  renderMjml,
  type TemplatesDeps,
  updateTemplate,
} from "../usecases/templates";

/** crafter.notifications.v1.TemplatesService: thin handlers; the use cases hold the logic. */
export function templatesRoutes(deps: TemplatesDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(TemplatesService, {
      listTemplates: (req, ctx) => listTemplates(deps, callerOf(ctx), req),
      getTemplate: (req, ctx) => getTemplate(deps, callerOf(ctx), req),
      createTemplate: (req, ctx) => createTemplate(deps, callerOf(ctx), req),
      updateTemplate: (req, ctx) => updateTemplate(deps, callerOf(ctx), req),
      deleteTemplate: (req, ctx) => deleteTemplate(deps, callerOf(ctx), req),
      renderMjml: (req) => renderMjml(req.mjml, Object.keys(req.values).length > 0 ? req.values : undefined),
    });
}
