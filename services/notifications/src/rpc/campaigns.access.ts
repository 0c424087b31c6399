import { rpcAccess } from "@crafter/kit";
import { CampaignsService } from "@crafter/proto/crafter/notifications/v1/campaigns_pb";

/**
 * Who may call each CampaignsService RPC: a user on their own campaigns (through the gateway, with
 * their token); the public tracking and the provider's webhook only through the gateway's token.
 */
export const campaignsAccess = rpcAccess(CampaignsService, {
  listCampaigns: ["user"],
  createCampaign: ["user"],
  getCampaign: ["user"],
  updateCampaign: ["user"],
  deleteCampaign: ["user"],
  sendCampaign: ["user"],
  scheduleCampaign: ["user"],
  pauseCampaign: ["user"],
  resumeCampaign: ["user"],
  sendTestEmail: ["user"],
  listRecipients: ["user"],
  previewCampaign: ["user"],
  trackOpen: ["service:gateway"],
  trackClick: ["service:gateway"],
  handleSendgridEvents: ["service:gateway"],
});
