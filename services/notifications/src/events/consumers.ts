import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ConnectionNeedsReconnectingSchema,
  ShopifyWebhookReceivedSchema,
} from "@crafter/proto/crafter/events/v1/connections_pb";
import { ContactConsentRequestedSchema } from "@crafter/proto/crafter/events/v1/contacts_pb";
import {
  EmailChangeRequestedSchema,
  PasswordResetRequestedSchema,
  ProfileUpdatedSchema,
  ProjectCreatedSchema,
  UserRegisteredSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";
import { ProjectMemberInvitedSchema } from "@crafter/proto/crafter/events/v1/project_members_pb";
import type { NotificationsDeps } from "../deps";
import { noticeConnectionNeedsReconnecting, noticeShopifyDataRequest } from "../usecases/connection-notices";
import { sendConsentEmail } from "../usecases/send-consent-email";
import { sendEmailChangeEmails } from "../usecases/send-email-change-emails";
import { sendInviteEmail } from "../usecases/send-invite-email";
import { sendPasswordResetEmail } from "../usecases/send-password-reset-email";
import { sendVerificationEmail } from "../usecases/send-verification-email";
import { automationsConsumers } from "./automations.consumers";
import { calendarConsumers } from "./calendar.consumers";
import { webhooksConsumers } from "./webhooks.consumers";

/** A protobuf Timestamp as a Date; null when unset. */
export function toDate(timestamp: Timestamp | undefined): Date | null {
  if (!timestamp) return null;
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1_000_000));
}

/** The notifications service's Kafka consumers: the emails of auth's user events and the lead form's double opt-in, then each area's. */
export function notificationsConsumers(
  namespace: string,
  deps: NotificationsDeps,
): NonNullable<ServiceParts["consumers"]> {
  const areas = [
    automationsConsumers(namespace, deps),
    calendarConsumers(namespace, deps),
    webhooksConsumers(namespace, deps.webhooks),
  ];
  return {
    topics: [
      ...new Set([
        topicName(namespace, TOPICS.authUser),
        topicName(namespace, TOPICS.contactsContact),
        topicName(namespace, TOPICS.projectsProject),
        topicName(namespace, TOPICS.accountConnection),
        ...areas.flatMap((a) => a.topics),
      ]),
    ],
    handlers: [
      ...areas.flatMap((a) => a.handlers),
      // The business's time zone, kept by project for the scans' days and hours.
      on(ProjectCreatedSchema, (event) => deps.zones.remember(event.userId, event.projectId, event.timeZone)),
      on(ProfileUpdatedSchema, async (event) => {
        if (event.profileType === "PROJECT" && event.changed.includes("timeZone"))
          await deps.zones.remember(event.userId, event.projectId, event.timeZone);
      }),
      on(UserRegisteredSchema, (event, meta) =>
        sendVerificationEmail(deps, meta.id, {
          userId: event.userId,
          email: event.email,
          displayName: event.displayName,
          verificationToken: event.verificationToken,
          verificationExpiresAt: toDate(event.verificationExpiresAt),
        }),
      ),
      on(PasswordResetRequestedSchema, (event, meta) =>
        sendPasswordResetEmail(deps, meta.id, {
          userId: event.userId,
          email: event.email,
          resetToken: event.resetToken,
          expiresAt: toDate(event.expiresAt),
        }),
      ),
      // An email change: the link to the new address, a notice to the old.
      on(EmailChangeRequestedSchema, (event, meta) =>
        sendEmailChangeEmails(deps, meta.id, {
          userId: event.userId,
          oldEmail: event.oldEmail,
          newEmail: event.newEmail,
          token: event.token,
          expiresAt: toDate(event.expiresAt),
          displayName: event.displayName,
        }),
      ),
      // A team invitation: the single-use link to the invited address.
      on(ProjectMemberInvitedSchema, (event, meta) =>
        sendInviteEmail(deps, meta.id, {
          projectId: event.projectId,
          projectTitle: event.projectTitle,
          inviteId: event.inviteId,
          email: event.email,
          role: event.role,
          token: event.token,
          expiresAt: toDate(event.expiresAt),
          inviterName: event.inviterName,
        }),
      ),
      // A connection the provider stopped accepting: the owner's in-app notice, once per connection.
      on(ConnectionNeedsReconnectingSchema, (event) =>
        noticeConnectionNeedsReconnecting(deps, {
          ownerUserId: event.ownerUserId,
          projectId: event.projectId,
          provider: event.provider,
          providerTitle: event.providerTitle,
          lastError: event.lastError,
          connectedAt: toDate(event.connectedAt),
        }),
      ),
      // Shopify's customers/data_request: the owner's notice to export the contact's data, once per request.
      on(ShopifyWebhookReceivedSchema, async (event) => {
        if (event.topic !== "customers/data_request") return;
        await noticeShopifyDataRequest(deps, {
          ownerUserId: event.ownerUserId,
          projectId: event.projectId,
          webhookId: event.webhookId,
          customerEmail: event.customerEmail,
        });
      }),
      // The double opt-in of a lead form: the confirm link, once per event.
      on(ContactConsentRequestedSchema, (event, meta) =>
        sendConsentEmail(deps, meta.id, {
          userId: event.userId,
          projectId: event.projectId,
          email: event.email,
          firstName: event.firstName,
          confirmUrl: event.confirmUrl,
          formTitle: event.formTitle,
          preferencesUrl: event.preferencesUrl,
        }),
      ),
    ],
  };
}
