import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { PasswordResetRequestedSchema, UserRegisteredSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { NotificationsDeps } from "../deps";
import { sendPasswordResetEmail } from "../usecases/send-password-reset-email";
import { sendVerificationEmail } from "../usecases/send-verification-email";
import { calendarConsumers } from "./calendar.consumers";

/** A protobuf Timestamp as a Date; null when unset. */
export function toDate(timestamp: Timestamp | undefined): Date | null {
  if (!timestamp) return null;
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(timestamp.nanos / 1_000_000));
}

/** The notifications service's Kafka consumers: the emails of auth's user events, then each area's. */
export function notificationsConsumers(
  namespace: string,
  deps: NotificationsDeps,
): NonNullable<ServiceParts["consumers"]> {
  const areas = [calendarConsumers(namespace, deps)];
  return {
    topics: [topicName(namespace, TOPICS.authUser), ...areas.flatMap((a) => a.topics)],
    handlers: [
      ...areas.flatMap((a) => a.handlers),
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
    ],
  };
}
