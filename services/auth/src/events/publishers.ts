import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  EmailChangeRequestedSchema,
  EmailVerifiedSchema,
  PasswordChangedSchema,
  PasswordResetRequestedSchema,
  UserRegisteredSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";

/** Builds the events of the user aggregate (topic `<ns>.auth.user.v1`, key = user id), as outbox entries. */
export class UserEvents {
  readonly topic: string;

  constructor(namespace: string) {
    this.topic = topicName(namespace, TOPICS.authUser);
  }

  registered(user: {
    userId: string;
    email: string;
    displayName: string;
    role: string;
    verificationToken: string;
    verificationExpiresAt: Date;
    /** The referral link's code, "" for none. */
    referralCode?: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, user.userId, UserRegisteredSchema, {
      userId: user.userId,
      email: user.email,
      displayName: user.displayName,
      role: user.role,
      verificationToken: user.verificationToken,
      verificationExpiresAt: timestampFromDate(user.verificationExpiresAt),
      referralCode: user.referralCode ?? "",
    });
  }

  emailVerified(user: { userId: string; email: string }): OutboxEntry {
    return outboxEntry(this.topic, user.userId, EmailVerifiedSchema, { userId: user.userId, email: user.email });
  }

  /** An email change was asked for: the link for the new address, a notice for the old. */
  emailChangeRequested(change: {
    userId: string;
    oldEmail: string;
    newEmail: string;
    token: string;
    expiresAt: Date;
    displayName: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, change.userId, EmailChangeRequestedSchema, {
      ...change,
      expiresAt: timestampFromDate(change.expiresAt),
    });
  }

  passwordResetRequested(reset: { userId: string; email: string; resetToken: string; expiresAt: Date }): OutboxEntry {
    return outboxEntry(this.topic, reset.userId, PasswordResetRequestedSchema, {
      userId: reset.userId,
      email: reset.email,
      resetToken: reset.resetToken,
      expiresAt: timestampFromDate(reset.expiresAt),
    });
  }

  passwordChanged(userId: string): OutboxEntry {
    return outboxEntry(this.topic, userId, PasswordChangedSchema, { userId });
  }
}
