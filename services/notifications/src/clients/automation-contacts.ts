import type { JsonObject } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceClient, type ServiceCredentials } from "@crafter/kit";
import { ConsentStatus, ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import type { AutomationContact, AutomationContacts } from "../domain/automation-ports";

const CONSENT: Record<ConsentStatus, AutomationContact["consent"]> = {
  [ConsentStatus.UNSPECIFIED]: "",
  [ConsentStatus.PENDING]: "pending",
  [ConsentStatus.SUBSCRIBED]: "subscribed",
  [ConsentStatus.UNSUBSCRIBED]: "unsubscribed",
  [ConsentStatus.BOUNCED]: "bounced",
  [ConsentStatus.COMPLAINED]: "complained",
};

/**
 * The contacts service as the automation engine calls it: notifications' service token, naming the
 * user (contacts' access table allows `service:notifications` on these RPCs).
 */
export function contactsForAutomations(options: {
  url: string;
  credentials: ServiceCredentials;
  timeoutMs: number;
}): AutomationContacts {
  const client = createServiceClient(ContactsService, options.url, {
    timeoutMs: options.timeoutMs,
    as: "service",
    credentials: options.credentials,
  });
  return {
    async get(userId, projectId, contactId) {
      try {
        const { contact } = await client.getContact({ userId, projectId, contactId });
        if (!contact) return null;
        return {
          contactId: contact.contactId,
          email: contact.email,
          firstName: contact.firstName,
          lastName: contact.lastName,
          consent: CONSENT[contact.consent] ?? "",
        };
      } catch (error) {
        if (error instanceof ConnectError && error.code === Code.NotFound) return null;
        throw error;
      }
    },
    async tag(userId, projectId, contactId, add, remove) {
      await client.tagContacts({ userId, projectId, contactIds: [contactId], add, remove });
    },
    async setField(userId, projectId, contactId, field, value) {
      const custom = field.startsWith("custom.");
      const name = custom ? "custom" : field;
      const contact = custom
        ? { custom: { [field.slice("custom.".length)]: value } as JsonObject }
        : { [field]: value === null ? "" : String(value) };
      await client.updateContact({ userId, projectId, contactId, contact, fields: [name] });
    },
    async matches(userId, projectId, contactId, query) {
      const { matches } = await client.matchContact({
        userId,
        projectId,
        contactId,
        query: query as unknown as JsonObject,
      });
      return matches;
    },
    async matchSegments(userId, projectId, contactId, segmentIds) {
      return (await client.matchSegments({ userId, projectId, contactId, segmentIds })).segmentIds;
    },
    async contactsOnDate(input) {
      const { contacts, next } = await client.listContactsByDate(input);
      return { contacts: contacts.map((c) => ({ contactId: c.contactId, email: c.email })), next };
    },
  };
}
