import { type Logger, MarkerSet, type Redis } from "@crafter/kit";
import type { Connection, Model } from "mongoose";
import { AssistantRepository, assistantModel, sessionModel } from "./assistant.repository";
import {
  type ConsentAskDoc,
  ConsentAskRepository,
  consentAskModel,
  consentAskRunModel,
} from "./consent-ask.repository";
import { type ContactDoc, ContactRepository, contactModel } from "./contact.repository";
import { ContactSnapshots } from "./contact-snapshot";
import { ImportRepository } from "./import.repository";
import { LeadRepository, leadFormModel, type SubmissionDoc, submissionModel } from "./lead.repository";
import { SegmentRepository, segmentMemberModel, segmentModel } from "./segment.repository";
import { SettingsRepository, settingsModel } from "./settings.repository";
import { ShopifyCustomerRepository, shopifyCustomerModel } from "./shopify-customer.repository";
import {
  consentChangeModel,
  type DeletionDoc,
  deletionModel,
  interactionModel,
  TimelineRepository,
} from "./timeline.repository";

/** Every repository of the contacts service, over its own database. */
export interface ContactsStores {
  contacts: ContactRepository;
  timeline: TimelineRepository;
  settings: SettingsRepository;
  segments: SegmentRepository;
  imports: ImportRepository;
  leads: LeadRepository;
  assistants: AssistantRepository;
  /** "Ask for permission": the asks (append-only, one per contact per 30-day window) and their runs. */
  consentAsks: ConsentAskRepository;
  /** Shopify customers' links to their contacts (domain/shopify-customers.ts). */
  shopifyCustomers: ShopifyCustomerRepository;
  /** Done-markers of one-time passes over the database (usecases/date-tokens.ts), by name. */
  backfills: MarkerSet;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Array<Model<ContactDoc> | Model<DeletionDoc> | Model<SubmissionDoc> | Model<ConsentAskDoc>>;
}

/**
 * Builds the repositories and waits until their indexes exist. `redis` keeps the projects' contact
 * snapshots (contact-snapshot.ts).
 */
export async function createStores(
  connection: Connection,
  redis: Redis,
  logger: Logger,
  snapshotCapacity?: number,
): Promise<ContactsStores> {
  const contacts = contactModel(connection);
  const consent = consentChangeModel(connection);
  const interactions = interactionModel(connection);
  const deletions = deletionModel(connection);
  const settings = settingsModel(connection);
  const segments = segmentModel(connection);
  const members = segmentMemberModel(connection);
  const forms = leadFormModel(connection);
  const submissions = submissionModel(connection);
  const assistants = assistantModel(connection);
  const sessions = sessionModel(connection);
  const imports = new ImportRepository(connection);
  const asks = consentAskModel(connection);
  const askRuns = consentAskRunModel(connection);
  const backfills = new MarkerSet(connection, "ContactBackfill", "backfills");
  const shopifyCustomers = shopifyCustomerModel(connection);
  await Promise.all([
    ...[contacts, consent, interactions, deletions, settings, segments, members].map((model) => model.init()),
    ...[forms, submissions, assistants, sessions, asks, askRuns].map((model) => model.init()),
    shopifyCustomers.init(),
    imports.init(),
    backfills.model.init(),
  ]);
  return {
    contacts: new ContactRepository(contacts, new ContactSnapshots(redis, logger, snapshotCapacity)),
    timeline: new TimelineRepository(consent, interactions, deletions),
    settings: new SettingsRepository(settings),
    segments: new SegmentRepository(segments, members),
    imports,
    leads: new LeadRepository(forms, submissions),
    assistants: new AssistantRepository(assistants, sessions),
    consentAsks: new ConsentAskRepository(asks, askRuns),
    shopifyCustomers: new ShopifyCustomerRepository(shopifyCustomers),
    backfills,
    outbox: [contacts, deletions, submissions, asks],
  };
}
