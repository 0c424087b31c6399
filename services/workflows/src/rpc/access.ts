import { rpcAccess } from "@crafter/kit";
import { PagesService } from "@crafter/proto/crafter/workflows/v1/pages_pb";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";

/**
 * Who may call each WorkflowsService RPC: the gateway (its /api routes and its /rpc stream relay),
 * forwarding the user's access token. Every craft is the user's own.
 */
export const access = rpcAccess(WorkflowsService, {
  getHeaders: ["user"],
  createCraft: ["user"],
  getCraft: ["user"],
  saveCraft: ["user"],
  completeStep: ["user"],
  editStep: ["user"],
  renameCraft: ["user"],
  getResults: ["user"],
  listCrafts: ["user"],
  runAction: ["user"],
  generateInlineText: ["user"],
  saveActionResult: ["user"],
  cloneCraft: ["user"],
  setFavorite: ["user"],
  deleteCraft: ["user"],
  createStandaloneCraft: ["user"],
  writeImagePrompts: ["user"],
  assistantChat: ["user"],
  // The use cases also check the role (owners and admins, @crafter/roles "ai.settings").
  getAiSettings: ["user"],
  saveAiSettings: ["user"],
  deleteAiSettings: ["user"],
  testAiConnection: ["user"],
});

/**
 * PagesService: a user publishes their own crafts; the published page itself is public
 * (the gateway reads it with no token to serve `/<slug>`).
 */
export const pagesAccess = rpcAccess(PagesService, {
  publishPage: ["user"],
  unpublishPage: ["user"],
  getCraftPage: ["user"],
  getPublishedPage: ["public"],
  // A custom domain's `/` (the gateway, naming the project's owner).
  listProjectPages: ["service:gateway"],
  listMyProjectPages: ["user"],
});
