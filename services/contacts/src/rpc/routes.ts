import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import type { ContactsDeps } from "../deps";
import { getContactsStatus } from "../usecases/get-contacts-status";

/** crafter.contacts.v1.ContactsService: thin handlers; the use cases hold the logic. */
export function routes(deps: ContactsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(ContactsService, {
      async getContactsStatus(req, ctx) {
        return getContactsStatus(deps, callerOf(ctx), req);
      },
    });
}
