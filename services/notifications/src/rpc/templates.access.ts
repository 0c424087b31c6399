import { rpcAccess } from "@crafter/kit";
import { TemplatesService } from "@crafter/proto/crafter/notifications/v1/templates_pb";

/** Who may call each TemplatesService RPC: the user, for their own templates. */
export const templatesAccess = rpcAccess(TemplatesService, {
  listTemplates: ["user"],
  getTemplate: ["user"],
  createTemplate: ["user"],
  updateTemplate: ["user"],
  deleteTemplate: ["user"],
  renderMjml: ["user"],
});
