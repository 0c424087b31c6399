import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  ContactConsentRequestedSchema,
  ContactCreatedSchema,
  ContactDeletedSchema,
  ContactTaggedSchema,
  ContactUnsubscribedSchema,
  ContactUpdatedSchema,
  LeadCapturedSchema,
} from "@crafter/proto/crafter/events/v1/contacts_pb";

/** The identity every contact event carries. */
export interface ContactRef {
  userId: string;
  projectId: string;
  contactId: string;
  email: string;
}

/**
 * Builders of the contacts service's events as outbox entries: the contact aggregate on
 * `<ns>.contacts.contact.v1` and leads on `<ns>.contacts.lead.v1`, keyed by the contact id.
 */
export class ContactsEvents {
  readonly contactTopic: string;
  readonly leadTopic: string;
  /** The full names of the topics it publishes (`<namespace>.<name>`). */
  readonly topics: string[];

  constructor(readonly namespace: string) {
    this.contactTopic = topicName(namespace, TOPICS.contactsContact);
    this.leadTopic = topicName(namespace, TOPICS.contactsLead);
    this.topics = [this.contactTopic, this.leadTopic];
  }

  created(ref: ContactRef, source: string, consent: string): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactCreatedSchema, { ...ref, source, consent });
  }

  updated(ref: ContactRef, consent: string): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactUpdatedSchema, { ...ref, consent });
  }

  deleted(ref: ContactRef): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactDeletedSchema, ref);
  }

  unsubscribed(ref: ContactRef, source: string, at: Date): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactUnsubscribedSchema, {
      ...ref,
      source,
      at: timestampFromDate(at),
    });
  }

  consentRequested(
    ref: ContactRef,
    firstName: string,
    links: { confirmUrl: string; preferencesUrl: string },
    formTitle: string,
  ): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactConsentRequestedSchema, {
      ...ref,
      firstName,
      ...links,
      formTitle,
    });
  }

  tagged(ref: ContactRef, tagsAdded: string[], tagsRemoved: string[]): OutboxEntry {
    return outboxEntry(this.contactTopic, ref.contactId, ContactTaggedSchema, { ...ref, tagsAdded, tagsRemoved });
  }

  leadCaptured(ref: ContactRef, source: string, originId: string): OutboxEntry {
    return outboxEntry(this.leadTopic, ref.contactId, LeadCapturedSchema, { ...ref, source, originId });
  }
}
