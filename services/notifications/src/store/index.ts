import type { Connection } from "mongoose";
import { type AutomationRepository, createAutomationRepository } from "./automation.repository";
import { type AutomationRunRepository, createAutomationRunRepository } from "./automation-run.repository";
import { createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";

/** Every repository of the notifications service, over its own database. */
export interface NotificationsStores {
  deliveries: DeliveryRepository;
  automations: AutomationRepository;
  automationRuns: AutomationRunRepository;
}

/** Builds the repositories and waits until their indexes exist (the unique event id is the send-once guard). */
export async function createStores(connection: Connection): Promise<NotificationsStores> {
  return {
    deliveries: await createDeliveryRepository(connection),
    automations: await createAutomationRepository(connection),
    automationRuns: await createAutomationRunRepository(connection),
  };
}
