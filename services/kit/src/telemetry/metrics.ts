import { metrics as api, type Counter, type Histogram, type Meter, type ObservableGauge } from "@opentelemetry/api";

/**
 * Crafter's own metrics (OTel metrics API, exported over OTLP; Prometheus names after the
 * collector in brackets). Attributes are low-cardinality on purpose: service, method, code, topic,
 * workflow, engine, reason — never ids. Instruments are created on first use, after the SDK has
 * set the global MeterProvider (before that the API hands out no-ops for good).
 *
 * Usage: `metrics.creditsSpent.add(n, { reason: "generation" })`.
 */
export interface CrafterMetrics {
  /** RPC server duration in s, by rpc.service, rpc.method, rpc.code [rpc_server_duration_seconds]. */
  rpcServerDuration: Histogram;
  /** RPC client duration in s, by rpc.service, rpc.method, rpc.code [rpc_client_duration_seconds]. */
  rpcClientDuration: Histogram;
  /** Kafka messages published, by messaging.destination.name [crafter_events_published_total]. */
  eventsPublished: Counter;
  /** Event handling time in s, by topic, ce_type, outcome (ok|dlq) [crafter_events_process_duration_seconds]. */
  eventProcessDuration: Histogram;
  /** Messages sent to a DLQ, by topic and consumer group [crafter_events_dlq_total]. */
  eventsDlq: Counter;
  /** Users who signed up [crafter_signups_total]. */
  signups: Counter;
  /** Crafts started, by workflow [crafter_crafts_started_total]. */
  craftsStarted: Counter;
  /** Generations run, by workflow, engine, outcome (ok|error) [crafter_generations_total]. */
  generations: Counter;
  /** Generation latency in s, by workflow, engine [crafter_generation_duration_seconds]. */
  generationDuration: Histogram;
  /** Credits spent, by reason (e.g. generation, image) [crafter_credits_spent_total]. */
  creditsSpent: Counter;
  /** Credits given back when work failed or was cancelled, by reason [crafter_credits_refunded_total]. */
  creditsRefunded: Counter;
  /** Background jobs that failed an attempt, by queue [crafter_jobs_failed_total]. */
  jobsFailed: Counter;
  /** Emails a mail server or provider accepted, by provider (smtp|sendgrid) [crafter_emails_sent_total]. */
  emailsSent: Counter;
  /** Hand-offs to a mail server or provider that failed, by provider [crafter_emails_failed_total]. */
  emailsFailed: Counter;
  /** Bounces and complaints a provider reported, by kind (bounce|complaint) [crafter_emails_bounced_total]. */
  emailsBounced: Counter;
  /**
   * Emails that may have reached their recipient twice (sent again after an attempt expired without
   * an outcome), by kind (campaign|automation|account) [email_possible_duplicates_total].
   */
  emailPossibleDuplicates: Counter;
}

const DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const GENERATION_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

function create(meter: Meter): CrafterMetrics {
  const seconds = (name: string, description: string, buckets = DURATION_BUCKETS_S) =>
    meter.createHistogram(name, { description, unit: "s", advice: { explicitBucketBoundaries: buckets } });
  return {
    rpcServerDuration: seconds("rpc.server.duration", "Duration of RPCs served."),
    rpcClientDuration: seconds("rpc.client.duration", "Duration of RPCs made to other services."),
    eventsPublished: meter.createCounter("crafter.events.published", { description: "Kafka messages published." }),
    eventProcessDuration: seconds(
      "crafter.events.process.duration",
      "Time to handle one Kafka event, retries included.",
    ),
    eventsDlq: meter.createCounter("crafter.events.dlq", {
      description: "Kafka messages sent to a dead-letter topic.",
    }),
    signups: meter.createCounter("crafter.signups", { description: "Users who signed up." }),
    craftsStarted: meter.createCounter("crafter.crafts.started", { description: "Crafts started." }),
    generations: meter.createCounter("crafter.generations", { description: "AI generations run." }),
    generationDuration: seconds("crafter.generation.duration", "Latency of one AI generation.", GENERATION_BUCKETS_S),
    creditsSpent: meter.createCounter("crafter.credits.spent", { description: "Credits debited." }),
    creditsRefunded: meter.createCounter("crafter.credits.refunded", { description: "Credits refunded." }),
    jobsFailed: meter.createCounter("crafter.jobs.failed", { description: "Background job attempts that failed." }),
    emailsSent: meter.createCounter("crafter.emails.sent", {
      description: "Emails a mail server or provider accepted, by provider (smtp, sendgrid).",
    }),
    emailsFailed: meter.createCounter("crafter.emails.failed", {
      description: "Hand-offs to a mail server or provider that failed (unreachable, refused, recipient rejected).",
    }),
    emailsBounced: meter.createCounter("crafter.emails.bounced", {
      description: "Bounces and spam complaints a provider reported, by kind (bounce, complaint).",
    }),
    emailPossibleDuplicates: meter.createCounter("email.possible_duplicates", {
      description: "Emails sent again after an attempt expired without an outcome (may have arrived twice).",
    }),
  };
}

let instruments: CrafterMetrics | undefined;

/** The process's Crafter instruments (see CrafterMetrics). */
export const metrics: CrafterMetrics = new Proxy({} as CrafterMetrics, {
  get(_target, name: keyof CrafterMetrics) {
    instruments ??= create(api.getMeter("crafter"));
    return instruments[name];
  },
});

/**
 * Registers an observable gauge read at each export (e.g. outbox backlog, consumer lag).
 * `read` returns [value, attributes] pairs; it must be cheap and must not do I/O.
 */
export function observeGauge(
  name: string,
  description: string,
  read: () => Iterable<[number, Record<string, string | number>]>,
): ObservableGauge {
  const gauge = api.getMeter("crafter").createObservableGauge(name, { description });
  gauge.addCallback((result) => {
    for (const [value, attributes] of read()) result.observe(value, attributes);
  });
  return gauge;
}
