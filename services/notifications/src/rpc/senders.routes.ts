import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { SendersService } from "@crafter/proto/crafter/notifications/v1/senders_pb";
import type { NotificationsDeps } from "../deps";
import {
  addSendingDomain,
  checkSendingDomain,
  confirmSenderAddress,
  getSenderIdentity,
  listSendingDomains,
  removeSendingDomain,
  sendSenderConfirmation,
  updateSenderIdentity,
} from "../usecases/sender";

/** crafter.notifications.v1.SendersService: thin handlers; the use cases hold the logic. */
export function sendersRoutes(deps: Pick<NotificationsDeps, "sender">): (router: ConnectRouter) => void {
  const sender = deps.sender;
  return (router) =>
    router.service(SendersService, {
      getSenderIdentity: async (req, ctx) => ({
        identity: await getSenderIdentity(sender, callerOf(ctx), req.projectId),
      }),
      updateSenderIdentity: async (req, ctx) => ({
        identity: await updateSenderIdentity(sender, callerOf(ctx), req, sender.cache),
      }),
      sendSenderConfirmation: async (req, ctx) => ({
        identity: await sendSenderConfirmation(sender, callerOf(ctx), req.projectId),
      }),
      confirmSenderAddress: (req) => confirmSenderAddress(sender, req.token, sender.cache),
      listSendingDomains: async (req, ctx) => ({
        domains: await listSendingDomains(sender, callerOf(ctx), req.projectId),
      }),
      addSendingDomain: async (req, ctx) => ({ domain: await addSendingDomain(sender, callerOf(ctx), req) }),
      checkSendingDomain: async (req, ctx) => ({
        domain: await checkSendingDomain(sender, callerOf(ctx), req, sender.cache),
      }),
      removeSendingDomain: async (req, ctx) => {
        await removeSendingDomain(sender, callerOf(ctx), req, sender.cache);
        return {};
      },
    });
}
