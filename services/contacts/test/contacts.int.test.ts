// The contacts service of a running test stack (scripts/stack.mjs; addresses from .data/stack/*/stack.env).
import { createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, verifiedRpcUser } from "@crafter/kit/testing";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { describe, expect, it } from "@jest/globals";

const client = createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, { timeoutMs: 30_000 });

describe("ContactsService", () => {
  it("answers a verified user with their status, and refuses a call without a token", async () => {
    const { headers } = await verifiedRpcUser("contacts");

    expect(await client.getContactsStatus({}, { headers })).toMatchObject({ entries: 0, empty: true });
    const refused = await client.getContactsStatus({}).then(
      () => "resolved",
      (error) => describeError(error).status,
    );
    expect(refused).toBe(401);
  });
});
