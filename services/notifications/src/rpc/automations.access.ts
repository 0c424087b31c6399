import { rpcAccess } from "@crafter/kit";
import { AutomationsService } from "@crafter/proto/crafter/notifications/v1/automations_pb";

/** Who may call each AutomationsService RPC: the user, on their own automations. */
export const automationsAccess = rpcAccess(AutomationsService, {
  listAutomations: ["user"],
  getAutomation: ["user"],
  createAutomation: ["user"],
  updateAutomation: ["user"],
  deleteAutomation: ["user"],
  activateAutomation: ["user"],
  pauseAutomation: ["user"],
  listAutomationTemplates: ["user"],
  createAutomationFromTemplate: ["user"],
  listAutomationRuns: ["user"],
});
