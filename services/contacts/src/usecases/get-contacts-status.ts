import type { Caller } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { type Status, status } from "../domain/status";

/** How many entries the caller has. */
export async function getContactsStatus(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  _input: unknown,
): Promise<Status> {
  return status(await deps.stores.entries.countFor(caller.userId));
}
