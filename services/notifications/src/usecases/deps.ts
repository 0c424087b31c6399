import type { Logger } from "@crafter/kit";
import type { Mailer } from "../mail/mailer";
import type { DeliveryRepository } from "../store/delivery.repository";

/** What the notifications use cases need. */
export interface NotificationsDeps {
  deliveries: DeliveryRepository;
  mailer: Mailer;
  /** Public origin of the deployment, without a trailing slash; email links point here. */
  publicOrigin: string;
  logger: Logger;
  /** The clock (injected so tests can fix it). */
  now(): Date;
}
