import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import { CampaignFinishedSchema, CampaignScheduledSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import type { NotificationsDeps } from "../deps";
import { onCampaignFinished, onCampaignScheduled } from "../usecases/calendar-campaigns";

/** The calendar's consumers: the email area's campaign events place campaigns on the calendar. */
export function calendarConsumers(namespace: string, deps: NotificationsDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.notificationsEmail)],
    handlers: [
      on(CampaignScheduledSchema, (event) => onCampaignScheduled(deps, event)),
      on(CampaignFinishedSchema, (event) => onCampaignFinished(deps, event)),
    ],
  };
}
