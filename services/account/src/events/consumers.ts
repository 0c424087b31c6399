import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { EmailVerifiedSchema, UserRegisteredSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { AccountDeps } from "../deps";
import { createAccount } from "../usecases/create-account";
import { markEmailVerified } from "../usecases/mark-email-verified";

/** The account service's Kafka consumers: accounts are created when auth registers a user. */
export function accountConsumers(namespace: string, deps: AccountDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.authUser)],
    handlers: [
      on(UserRegisteredSchema, (event) => createAccount(deps, event)),
      on(EmailVerifiedSchema, (event) => markEmailVerified(deps, event)),
    ],
  };
}
