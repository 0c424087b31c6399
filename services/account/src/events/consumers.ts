import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { EmailVerifiedSchema, UserRegisteredSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { AccountStores } from "../store";
import { createAccount } from "../usecases/create-account";
import { markEmailVerified } from "../usecases/mark-email-verified";

/** The account service's Kafka consumers: accounts are created when auth registers a user. */
export function accountConsumers(namespace: string, stores: AccountStores): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.authUser)],
    handlers: [
      on(UserRegisteredSchema, (event) => createAccount(stores, event)),
      on(EmailVerifiedSchema, (event) => markEmailVerified(stores, event)),
    ],
  };
}
