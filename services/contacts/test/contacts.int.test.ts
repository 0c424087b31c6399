// The contacts service's RPCs directly (test stack of scripts/stack.mjs): access and user isolation.
import { createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, verifiedRpcUser } from "@crafter/kit/testing";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { describe, expect, it, jest } from "@jest/globals";

jest.setTimeout(60_000);

const client = createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, { timeoutMs: 30_000 });
const statusOf = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (error) => describeError(error).status,
  );

describe("ContactsService", () => {
  it("counts the caller's own contacts and refuses a call without a token", async () => {
    const [a, b] = await Promise.all([verifiedRpcUser("contacts-rpc-a"), verifiedRpcUser("contacts-rpc-b")]);
    expect(await client.getContactsStatus({}, { headers: a.headers })).toMatchObject({ entries: 0, empty: true });
    const { contact } = await client.createContact(
      { projectId: "p-rpc", contact: { email: "someone@example.com" } },
      { headers: a.headers },
    );
    expect(await client.getContactsStatus({}, { headers: a.headers })).toMatchObject({ entries: 1, empty: false });
    expect(await client.getContactsStatus({}, { headers: b.headers })).toMatchObject({ entries: 0 });
    // Another user naming the same project and contact finds nothing.
    expect(
      await statusOf(client.getContact({ projectId: "p-rpc", contactId: contact!.contactId }, { headers: b.headers })),
    ).toBe(404);
    expect(await statusOf(client.getContactsStatus({}))).toBe(401);
    // StreamSegmentMembers is open to services; a user names only themselves.
    const streamed = async () => {
      for await (const _ of client.streamSegmentMembers(
        { projectId: "p-rpc", segmentId: "nope", userId: a.userId },
        { headers: b.headers },
      )) {
        // drain
      }
    };
    expect([403, 404]).toContain(await statusOf(streamed()));
  });
});
