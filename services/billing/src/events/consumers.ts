import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { UserRegisteredSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { BillingDeps } from "../deps";
import { grantFreeCredits } from "../usecases/grant-free-credits";
import { recordReferral } from "../usecases/referrals";

/** When an event says it happened (ce_time); now when the header is missing or unreadable. */
export function eventTime(ceTime: string, now: Date): Date {
  const at = new Date(ceTime);
  return Number.isNaN(at.getTime()) ? now : at;
}

/** The billing service's Kafka consumers: the free tier is granted when auth registers a user. */
export function billingConsumers(namespace: string, deps: BillingDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.authUser)],
    handlers: [
      on(UserRegisteredSchema, async (event, meta) => {
        await grantFreeCredits(deps, { userId: event.userId, registeredAt: eventTime(meta.time, deps.now()) });
        if (event.referralCode) await recordReferral(deps, { userId: event.userId, code: event.referralCode });
      }),
    ],
  };
}
