import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** A project's webhook endpoint (`_id` = `we_…`). Its secret is sealed with the key ring. */
export interface WebhookEndpointDoc {
  _id: string;
  projectId: string;
  /** The project's owner: whose in-app notifications tell of a disabled endpoint. */
  ownerUserId: string;
  url: string;
  events: string[];
  /** dashboard or zapier (a REST Hook subscription). */
  source: "dashboard" | "zapier";
  /** The `whsec_…` secret sealed with SECRETS_KEYS (owner = `_id`). */
  secretSealed: string;
  secretHint: string;
  enabled: boolean;
  /** "" while enabled; owner or failing. */
  disabledReason: "" | "owner" | "failing";
  disabledAt: Date | null;
  createdAt: Date;
}

/** A project that has (or had) an endpoint: only its events are kept (`_id` = project id). */
export interface WebhookProjectDoc {
  _id: string;
  at: Date;
}

/** One event of a project, kept for the polling fallback (`_id` = its webhook-id); append-only. */
export interface WebhookEventDoc {
  _id: string;
  projectId: string;
  type: string;
  /** The JSON body every endpoint gets. */
  payload: string;
  createdAt: Date;
  /** createdAt's UTC day: the sweep removes old days by equality. */
  day: string;
}

/** One event for one endpoint (`_id` = deliveryIdOf(endpoint, message)); append-only. */
export interface WebhookDeliveryDoc {
  _id: string;
  endpointId: string;
  projectId: string;
  messageId: string;
  eventType: string;
  payload: string;
  createdAt: Date;
  /** createdAt's UTC day. */
  day: string;
}

/** One attempt at a delivery; append-only. */
export interface WebhookAttemptDoc {
  _id: string;
  deliveryId: string;
  endpointId: string;
  at: Date;
  ok: boolean;
  responseCode: number;
  error: string;
  /** The last scheduled attempt (nothing follows), or a one-shot send (a test or a resend). */
  final: boolean;
  /** A test event or a resend asked for in Settings. */
  manual: boolean;
  /** The delivery's day (attempts go with their delivery). */
  day: string;
}

const endpointSchema = new Schema<WebhookEndpointDoc>(
  {
    _id: String,
    projectId: { type: String, required: true },
    ownerUserId: { type: String, required: true },
    url: { type: String, required: true },
    events: { type: [String], default: [] },
    source: { type: String, default: "dashboard" },
    secretSealed: { type: String, required: true },
    secretHint: { type: String, default: "" },
    enabled: { type: Boolean, default: true },
    disabledReason: { type: String, default: "" },
    disabledAt: { type: Date, default: null },
    createdAt: Date,
  },
  { collection: "webhook_endpoints", versionKey: false },
);
endpointSchema.index({ projectId: 1 });

const projectSchema = new Schema<WebhookProjectDoc>(
  { _id: String, at: Date },
  { collection: "webhook_projects", versionKey: false },
);

const eventSchema = new Schema<WebhookEventDoc>(
  { _id: String, projectId: String, type: String, payload: String, createdAt: Date, day: String },
  { collection: "webhook_events", versionKey: false },
);
eventSchema.index({ projectId: 1, type: 1 });
eventSchema.index({ day: 1 });

const deliverySchema = new Schema<WebhookDeliveryDoc>(
  {
    _id: String,
    endpointId: { type: String, required: true },
    projectId: String,
    messageId: String,
    eventType: String,
    payload: String,
    createdAt: Date,
    day: String,
  },
  { collection: "webhook_deliveries", versionKey: false },
);
deliverySchema.index({ endpointId: 1 });
deliverySchema.index({ day: 1 });

const attemptSchema = new Schema<WebhookAttemptDoc>(
  {
    _id: String,
    deliveryId: { type: String, required: true },
    endpointId: String,
    at: Date,
    ok: Boolean,
    responseCode: Number,
    error: String,
    final: Boolean,
    manual: Boolean,
    day: String,
  },
  { collection: "webhook_attempts", versionKey: false },
);
attemptSchema.index({ deliveryId: 1 });
attemptSchema.index({ day: 1 });

/** Endpoints, the projects that have them, their events, deliveries and attempts. */
export class WebhookRepository {
  constructor(
    readonly endpoints: Model<WebhookEndpointDoc>,
    readonly projects: Model<WebhookProjectDoc>,
    readonly events: Model<WebhookEventDoc>,
    readonly deliveries: Model<WebhookDeliveryDoc>,
    readonly attempts: Model<WebhookAttemptDoc>,
  ) {}

  endpointsOf(projectId: string): Promise<WebhookEndpointDoc[]> {
    return this.endpoints.find({ projectId }).sort({ createdAt: -1 }).lean<WebhookEndpointDoc[]>().exec();
  }

  endpoint(endpointId: string): Promise<WebhookEndpointDoc | null> {
    return this.endpoints.findById(endpointId).lean<WebhookEndpointDoc>().exec();
  }

  async addEndpoint(doc: WebhookEndpointDoc): Promise<void> {
    await this.endpoints.create(doc);
    await insertOnce(this.projects, { _id: doc.projectId, at: doc.createdAt });
  }

  async setEnabled(
    endpointId: string,
    enabled: boolean,
    reason: WebhookEndpointDoc["disabledReason"],
    at: Date,
  ): Promise<void> {
    await this.endpoints.updateOne(
      { _id: endpointId },
      { $set: { enabled, disabledReason: enabled ? "" : reason, disabledAt: enabled ? null : at } },
    );
  }

  async setEvents(endpointId: string, events: string[]): Promise<void> {
    await this.endpoints.updateOne({ _id: endpointId }, { $set: { events } });
  }

  /** Removes an endpoint; its deliveries and attempts stay until swept (nothing reads them by project). */
  async removeEndpoint(endpointId: string): Promise<boolean> {
    return (await this.endpoints.deleteOne({ _id: endpointId })).deletedCount > 0;
  }

  async hasEndpoints(projectId: string): Promise<boolean> {
    return (await this.projects.exists({ _id: projectId })) !== null;
  }

  /** @returns false when the event was recorded before (a redelivery). */
  recordEvent(doc: WebhookEventDoc): Promise<boolean> {
    return insertOnce(this.events, doc);
  }

  /** The project's latest events of one type, newest first. */
  recentEvents(projectId: string, type: string, limit: number): Promise<WebhookEventDoc[]> {
    return this.events.find({ projectId, type }).sort({ createdAt: -1 }).limit(limit).lean<WebhookEventDoc[]>().exec();
  }

  /** @returns false when this endpoint already has a delivery of this event. */
  addDelivery(doc: WebhookDeliveryDoc): Promise<boolean> {
    return insertOnce(this.deliveries, doc);
  }

  delivery(deliveryId: string): Promise<WebhookDeliveryDoc | null> {
    return this.deliveries.findById(deliveryId).lean<WebhookDeliveryDoc>().exec();
  }

  async deliveriesOf(
    endpointId: string,
    skip: number,
    limit: number,
  ): Promise<{ count: number; items: WebhookDeliveryDoc[] }> {
    const [count, items] = await Promise.all([
      this.deliveries.countDocuments({ endpointId }),
      this.deliveries
        .find({ endpointId })
        .sort({ createdAt: -1, _id: -1 })
        .skip(skip)
        .limit(limit)
        .lean<WebhookDeliveryDoc[]>()
        .exec(),
    ]);
    return { count, items };
  }

  async addAttempt(doc: WebhookAttemptDoc): Promise<void> {
    await this.attempts.create(doc);
  }

  attemptsOf(deliveryId: string): Promise<WebhookAttemptDoc[]> {
    return this.attempts.find({ deliveryId }).lean<WebhookAttemptDoc[]>().exec();
  }

  /** Removes one day's events, deliveries and attempts. @returns how many documents went. */
  async removeDay(day: string): Promise<number> {
    const counts = await Promise.all(
      [this.events, this.deliveries, this.attempts].map(
        async (model) => (await (model as unknown as Model<{ day: string }>).deleteMany({ day })).deletedCount,
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  }
}

export async function createWebhookRepository(connection: Connection): Promise<WebhookRepository> {
  const endpoints = modelOn<WebhookEndpointDoc>(connection, "WebhookEndpoint", endpointSchema);
  const projects = modelOn<WebhookProjectDoc>(connection, "WebhookProject", projectSchema);
  const events = modelOn<WebhookEventDoc>(connection, "WebhookEvent", eventSchema);
  const deliveries = modelOn<WebhookDeliveryDoc>(connection, "WebhookDelivery", deliverySchema);
  const attempts = modelOn<WebhookAttemptDoc>(connection, "WebhookAttempt", attemptSchema);
  await Promise.all([endpoints, projects, events, deliveries, attempts].map((model) => model.createIndexes()));
  return new WebhookRepository(endpoints, projects, events, deliveries, attempts);
}
