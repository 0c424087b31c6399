import type { JsonObject } from "@bufbuild/protobuf";
import { appError, createServiceClient, describeError, modelOn, type ServiceCredentials } from "@crafter/kit";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { ConsentStatus, type Contact, ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { ProfileType, ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { type Connection, Schema } from "mongoose";
import type {
  BusinessPort,
  ContactLinksPort,
  EmailContactsPort,
  EmailRecipient,
  EmailUsagePort,
  ProviderRouter,
} from "../deps";
import type { BusinessFooter } from "../domain/email-compose";
import type { EmailProvider, SendThrottle } from "../mail/providers";

/** Re-throws a peer's failure in the catalogue's terms (the limit scenarios, NOT_FOUND…). */
function upstream(error: unknown): never {
  const described = describeError(error);
  throw appError(
    described.code,
    described.code === "InternalServerError" ? undefined : described.message,
    described.fields,
  );
}

const CONSENT_NAMES: Record<number, string> = {
  [ConsentStatus.PENDING]: "pending",
  [ConsentStatus.SUBSCRIBED]: "subscribed",
  [ConsentStatus.UNSUBSCRIBED]: "unsubscribed",
  [ConsentStatus.BOUNCED]: "bounced",
  [ConsentStatus.COMPLAINED]: "complained",
};

function recipientOf(contact: Contact): EmailRecipient {
  return {
    contactId: contact.contactId,
    email: contact.email,
    firstName: contact.firstName,
    lastName: contact.lastName,
    consent: CONSENT_NAMES[contact.consent] ?? "pending",
    timeZone: contact.timeZone,
  };
}

/** The contacts service with the notifications service's token (contacts' access table allows it, naming the user). */
export function contactsPort(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): EmailContactsPort {
  const client = createServiceClient(ContactsService, baseUrl, { timeoutMs, as: "service", credentials });
  // The members stream of a large segment takes longer than one unary call.
  const streaming = createServiceClient(ContactsService, baseUrl, {
    timeoutMs: Math.max(timeoutMs, 120_000),
    as: "service",
    credentials,
  });
  return {
    async contact(userId, projectId, contactId) {
      try {
        const response = await client.getContact({ userId, projectId, contactId });
        return response.contact ? recipientOf(response.contact) : null;
      } catch (error) {
        if (describeError(error).code === "NOT_FOUND") return null;
        return upstream(error);
      }
    },
    async *subscribedMembers(userId, projectId, segmentId) {
      try {
        for await (const page of streaming.streamSegmentMembers({ userId, projectId, segmentId, subscribedOnly: true }))
          yield page.contacts.map(recipientOf);
      } catch (error) {
        upstream(error);
      }
    },
    async *segmentMembers(userId, projectId, segmentId) {
      try {
        for await (const page of streaming.streamSegmentMembers({
          userId,
          projectId,
          segmentId,
          subscribedOnly: false,
        }))
          yield page.contacts.map(recipientOf);
      } catch (error) {
        upstream(error);
      }
    },
    async setConsent(userId, projectId, contactId, consent, source) {
      try {
        await client.setConsent({
          userId,
          projectId,
          contactId,
          status: consent === "bounced" ? ConsentStatus.BOUNCED : ConsentStatus.COMPLAINED,
          source,
        });
      } catch (error) {
        // A contact deleted since the send has no consent left to change.
        if (describeError(error).code !== "NOT_FOUND") upstream(error);
      }
    },
  };
}

/**
 * A contact's signed unsubscribe, preference-centre and one-click links from the contacts service
 * (GetContactLinks, with the notifications service's token), so the contacts service verifies its own
 * tokens when the recipient follows them. @throws the contacts service's errors (NOT_FOUND…).
 */
export function contactsLinks(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): ContactLinksPort {
  const client = createServiceClient(ContactsService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async links(userId, _projectId, contactId) {
      const answer = await client.getContactLinks({ userId, contactId }).catch(upstream);
      return {
        unsubscribeUrl: answer.unsubscribeUrl,
        preferencesUrl: answer.preferencesUrl,
        oneClickUrl: answer.oneClickUrl,
      };
    },
  };
}

/** Billing's `emails` counter with the notifications service's token. */
export function billingUsage(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): EmailUsagePort {
  const client = createServiceClient(BillingService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async reserve(userId, key) {
      await client.reserveUsage({ userId, counter: "emails", amount: 1, key }).catch(upstream);
    },
    async reserveMany(userId, key, amount) {
      await client.reserveUsage({ userId, counter: "emails", amount, key }).catch(upstream);
    },
    async release(userId, key) {
      await client.releaseUsage({ userId, counter: "emails", key }).catch(upstream);
    },
  };
}

interface SenderDoc {
  _id: string;
  name: string;
  address: string;
  at: Date;
}

const senderSchema = new Schema<SenderDoc>(
  { _id: String, name: String, address: String, at: Date },
  { collection: "email_senders", versionKey: false },
);

/**
 * The footer's business from a PROJECT profile: its name (else the project's title) and its postal
 * address (`fields.address`, the business profile's "Postal address", its lines joined by commas; ""
 * when it has none).
 */
export function footerOf(projectTitle: string, profile: { name: string; fields?: JsonObject }): BusinessFooter {
  const raw = profile.fields?.address;
  // A multi-line address is one footer line.
  const address =
    typeof raw === "string"
      ? raw
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
          .join(", ")
      : "";
  return { name: profile.name || projectTitle, address };
}

/**
 * The business profile of a project through the projects service: with the user's token on a
 * user's request (sending, scheduling, a test, activating an automation); else, given `credentials`,
 * with the notifications service's token naming the user (ListProfiles), so a send without a user
 * (an automation's email) sees the profile as it is now, an address removed included. Each read is
 * kept per project; when the projects service cannot answer, the last one seen is used.
 */
export function projectsBusiness(
  baseUrl: string,
  timeoutMs: number,
  connection: Connection,
  credentials?: ServiceCredentials,
): BusinessPort {
  const client = createServiceClient(ProjectsService, baseUrl, { timeoutMs });
  const service = credentials
    ? createServiceClient(ProjectsService, baseUrl, { timeoutMs, as: "service", credentials })
    : undefined;
  const senders = modelOn<SenderDoc>(connection, "EmailSender", senderSchema);
  const keep = async (id: string, footer: BusinessFooter, known: SenderDoc | null) => {
    if (known?.name === footer.name && known.address === footer.address) return;
    await senders.replaceOne({ _id: id }, { ...footer, at: new Date() }, { upsert: true });
  };
  return {
    async footer(userId, projectId, token) {
      const id = `${userId}:${projectId}`;
      const known = await senders.findById(id).lean<SenderDoc>();
      if (token) {
        try {
          const headers = { authorization: `Bearer ${token}` };
          const { projects } = await client.listProjects({}, { headers });
          const project = projects.find((p) => p.projectId === projectId);
          if (project) {
            const { profile } = await client.getProfile({ profileId: project.profileId }, { headers });
            const footer = footerOf(project.projectTitle, { name: profile?.name ?? "", fields: profile?.fields });
            await keep(id, footer, known);
            return footer;
          }
        } catch {
          // The snapshot below (or the plain footer) still carries the unsubscribe links.
        }
      } else if (service) {
        try {
          const { profiles } = await service.listProfiles({ userId, projectId, type: ProfileType.PROJECT });
          const profile = profiles[0];
          if (profile) {
            const footer = footerOf(known?.name ?? "", { name: profile.name, fields: profile.fields });
            await keep(id, footer, known);
            return footer;
          }
        } catch {
          // The projects service is away (or the project gone): the last profile seen.
        }
      }
      return known ? { name: known.name, address: known.address } : { name: "", address: "" };
    },
  };
}

/** Routes every user to one provider (SMTP, or SendGrid when configured and the flag is on). */
export function fixedProvider(provider: EmailProvider, throttle: SendThrottle): ProviderRouter {
  return {
    async providerFor() {
      return { provider, throttle };
    },
  };
}
