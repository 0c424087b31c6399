// Automation latency (not a timed test): the end-to-end time from a LeadCaptured event
// published on Kafka (as the contacts service's relay publishes it) to the automation's first step
// (a send_email through sendToContact) recorded in the run history, p50/p95 over N events (target:
// p95 < 1 s). Needs the test stack (STACK_PORT_OFFSET/CRAFTER_NAMESPACE as when it was started) with
// .data/infra.env and .data/stack/test/stack.env sourced:
//   node scripts/bench/run.mjs automations [--events 40] [--gap-ms 250] [--tag]
import { randomUUID } from "node:crypto";
import { toBinary } from "@bufbuild/protobuf";
import { createKafka, createLogger, createPublisher, TOPICS, topicName } from "@crafter/kit";
import { stackEnv, verifiedSession } from "@crafter/kit/testing";
import { LeadCapturedSchema } from "@crafter/proto/crafter/events/v1/contacts_pb";
import { numberArg } from "./common";

const EVENTS = numberArg("events", 40);
const GAP_MS = numberArg("gap-ms", 250);
// --tag: the first step adds a tag (a contacts RPC) instead of sending an email (sendToContact's
// whole pipeline: contact, billing's counter, the footer, SMTP), to tell the engine's share apart.
const TAG = process.argv.includes("--tag");
const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter_test";

const { session } = await verifiedSession("bench-automations");
const project = await session.post("/api/projects/createProject", {
  name: "Crumb & Co. Bakery",
  description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
});
const projectId = project.body.result.project.projectId as string;
// Automation emails carry the business's postal address: without one the automation is not activated.
const address = await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
  values: { address: "1 Mill Lane, Bristol" },
});
if (address.status !== 200) throw new Error(`address: ${address.status} ${JSON.stringify(address.body)}`);
const token = [...session.cookies].find(([name]) => name === "crafter_at")?.[1] ?? "";
const userId = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub as string;

const contacts: { contactId: string; email: string }[] = [];
for (let i = 0; i < EVENTS; i++) {
  const email = `bench-${randomUUID().slice(0, 8)}@example.test`;
  const created = await session.post("/api/contacts", { email, firstName: `Lead${i}` });
  if (created.status !== 201) throw new Error(`contact: ${created.status} ${JSON.stringify(created.body)}`);
  await session.request("PATCH", `/api/contacts/${created.body.result.id}`, { consent: "subscribed" });
  contacts.push({ contactId: created.body.result.id, email });
}
const automation = await session.post("/api/automations", {
  name: "Bench",
  trigger: { kind: "lead_captured" },
  steps: [
    TAG
      ? { id: "hello", kind: "add_tag", tag: "bench" }
      : { id: "hello", kind: "send_email", subject: "Welcome", html: "<p>Hi {{contact.firstName}}</p>" },
  ],
});
const automationId = automation.body.result.id as string;
const activated = await session.post(`/api/automations/${automationId}/activate`);
if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);

const publisher = await createPublisher(
  createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "bench-automations", createLogger("bench", "silent")),
);
const publishedAt = new Map<string, number>();
for (const c of contacts) {
  const payload = toBinary(LeadCapturedSchema, {
    $typeName: "crafter.events.v1.LeadCaptured",
    userId,
    projectId,
    ...c,
    source: "lead form",
    originId: "bench",
  });
  publishedAt.set(c.contactId, Date.now());
  await publisher.publish(topicName(namespace, TOPICS.contactsLead), c.contactId, Buffer.from(payload), {
    ce_id: randomUUID(),
    ce_type: LeadCapturedSchema.typeName,
    ce_source: "contacts",
    ce_time: new Date().toISOString(),
  });
  await new Promise((r) => setTimeout(r, GAP_MS));
}
await publisher.disconnect();

// Every run's first step record, read back from the run history.
const deadline = Date.now() + 60_000;
const latencies = new Map<string, number>();
while (latencies.size < EVENTS && Date.now() < deadline) {
  for (let page = 1; page <= Math.ceil(EVENTS / 100); page++) {
    const runs = (await session.get(`/api/automations/${automationId}/runs?page=${page}&pageSize=100`)).body.result
      .result as { contactId: string; steps: { stepId: string; at: string }[] }[];
    for (const run of runs) {
      const first = run.steps.find((s) => s.stepId === "hello");
      const at = publishedAt.get(run.contactId);
      if (first && at !== undefined) latencies.set(run.contactId, Date.parse(first.at) - at);
    }
  }
  if (latencies.size < EVENTS) await new Promise((r) => setTimeout(r, 500));
}
const sorted = [...latencies.values()].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
console.log(
  `automation ${TAG ? "add_tag" : "send_email"} step latency after LeadCaptured (${sorted.length}/${EVENTS} events, one every ${GAP_MS} ms):`,
);
console.log(`  p50 ${pct(50)} ms   p95 ${pct(95)} ms   max ${sorted.at(-1)} ms   (target p95 < 1000 ms)`);
process.exit(sorted.length === EVENTS ? 0 : 1);
