import { timestampDate } from "@bufbuild/protobuf/wkt";
import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  CraftCreatedSchema,
  CreditsChangedSchema,
  EmailVerifiedSchema,
  UserRegisteredSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";
import type { AccountDeps } from "../deps";
import { creditFact } from "../domain/stats";
import { createAccount } from "../usecases/create-account";
import { markEmailVerified } from "../usecases/mark-email-verified";

/**
 * The account service's Kafka consumers: accounts are created when auth registers a user; crafts
 * and ledger entries become admin's usage facts.
 */
export function accountConsumers(namespace: string, deps: AccountDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [
      topicName(namespace, TOPICS.authUser),
      topicName(namespace, TOPICS.workflowsCraft),
      topicName(namespace, TOPICS.billingCredits),
    ],
    handlers: [
      on(UserRegisteredSchema, (event) => createAccount(deps, event)),
      on(EmailVerifiedSchema, (event) => markEmailVerified(deps, event)),
      // Admin's usage charts: one fact per craft and per ledger entry (idempotent by their ids).
      on(CraftCreatedSchema, async (event, meta) => {
        const at = meta.time ? new Date(meta.time) : deps.now();
        await deps.stores.stats.record(`craft:${event.craftId}`, { kind: "craft", amount: 1, at });
      }),
      on(CreditsChangedSchema, async (event) => {
        const at = event.occurredAt ? timestampDate(event.occurredAt) : deps.now();
        const fact = creditFact(event.kind, event.delta, at);
        if (fact) await deps.stores.stats.record(`credits:${event.entryId}`, fact);
      }),
    ],
  };
}
