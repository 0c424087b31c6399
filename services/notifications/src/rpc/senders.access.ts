import { rpcAccess } from "@crafter/kit";
import { SendersService } from "@crafter/proto/crafter/notifications/v1/senders_pb";

/**
 * Who may call each SendersService RPC: a user in a project their token reaches (the gateway lets
 * only its owner and project admins in); a confirmation link's landing only through the gateway.
 */
export const sendersAccess = rpcAccess(SendersService, {
  getSenderIdentity: ["user"],
  updateSenderIdentity: ["user"],
  sendSenderConfirmation: ["user"],
  confirmSenderAddress: ["service:gateway"],
  listSendingDomains: ["user"],
  addSendingDomain: ["user"],
  checkSendingDomain: ["user"],
  removeSendingDomain: ["user"],
});
