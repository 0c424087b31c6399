// Automations on the test stack: a real LeadCaptured on Kafka (as the contacts service's relay
// publishes it) runs an automation through a condition, a tag and a shortened wait
// (AUTOMATION_WAIT_SCALE=0.001) to emails read from Mailpit; a restart of the notifications service
// in the middle of a wait loses no run and sends no email twice.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { toBinary } from "@bufbuild/protobuf";
import { createKafka, createLogger, createPublisher, type Publisher, TOPICS, topicName } from "@crafter/kit";
import { type GatewaySession, repoRoot, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { LeadCapturedSchema } from "@crafter/proto/crafter/events/v1/contacts_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";

const env = stackEnv();
let publisher: Publisher;

beforeAll(async () => {
  const kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "automations-int-test", createLogger("t", "silent"));
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  await publisher?.disconnect();
});

/** The user id inside the session's access token (its `sub`). */
function userIdOf(session: GatewaySession): string {
  const token = [...session.cookies].find(([name]) => name === "crafter_at")?.[1] ?? "";
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub as string;
}

/**
 * A verified user with a project and one subscribed contact tagged `tags`; the business profile has a
 * postal address (emails need one) unless `address` is false.
 */
async function setUp(prefix: string, tags: string[], address = true) {
  const { session } = await verifiedSession(prefix);
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(project.status).toBe(201);
  const projectId = project.body.result.project.projectId as string;
  const profileId = project.body.result.profile.profileId as string;
  if (address) expect((await setAddress(session, profileId, "1 Mill Lane, Bristol")).status).toBe(200);
  const email = `lead-${randomUUID().slice(0, 8)}@example.test`;
  const contact = await session.post("/api/contacts", { email, firstName: "Ada", tags });
  expect(contact.status).toBe(201);
  const contactId = contact.body.result.id as string;
  const consent = await session.request("PATCH", `/api/contacts/${contactId}`, { consent: "subscribed" });
  expect(consent.status).toBe(200);
  return { session, userId: userIdOf(session), projectId, profileId, contactId, email };
}

const setAddress = (session: GatewaySession, profileId: string, address: string) =>
  session.request("PATCH", `/api/profiles/${profileId}`, { values: { address } });

/** Publishes LeadCaptured exactly as the contacts service's outbox relay does. */
async function leadCaptured(
  ids: { userId: string; projectId: string; contactId: string; email: string },
  eventId: string,
) {
  const payload = toBinary(LeadCapturedSchema, {
    $typeName: "crafter.events.v1.LeadCaptured",
    ...ids,
    source: "lead form",
    originId: "form-1",
  });
  await publisher.publish(
    topicName(env.CRAFTER_NAMESPACE ?? "crafter_test", TOPICS.contactsLead),
    ids.contactId,
    Buffer.from(payload),
    {
      ce_id: eventId,
      ce_type: LeadCapturedSchema.typeName,
      ce_source: "contacts",
      ce_time: new Date().toISOString(),
    },
  );
}

async function mailbox(to: string): Promise<string[]> {
  const api = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  return ((await response.json()) as { messages: { Subject: string }[] }).messages.map((m) => m.Subject);
}

async function runsOf(
  session: GatewaySession,
  automationId: string,
  until: (runs: any[]) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  let runs: any[] = [];
  while (Date.now() < deadline) {
    runs = (await session.get(`/api/automations/${automationId}/runs`)).body.result.result;
    if (until(runs)) return runs;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`runs did not settle: ${JSON.stringify(runs)}`);
}

describe("an automation from LeadCaptured", () => {
  it("runs a condition, a tag and a shortened wait to two emails, once however often the event comes", async () => {
    const lead = await setUp("auto-lead", ["vip"]);
    const { session } = lead;
    const created = await session.post("/api/automations", {
      name: "Welcome",
      trigger: { kind: "lead_captured" },
      steps: [
        {
          id: "hello",
          kind: "send_email",
          subject: "Welcome aboard",
          html: '<p>Hi {{contact.firstName | "there"}}</p>',
        },
        {
          id: "is-vip",
          kind: "condition",
          query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "vip" }] },
          yes: [{ id: "gold", kind: "add_tag", tag: "gold" }],
          no: [{ id: "bronze", kind: "add_tag", tag: "bronze" }],
        },
        { id: "wait", kind: "wait", duration: "PT1H" },
        { id: "follow", kind: "send_email", subject: "A day later", html: "<p>Still there?</p>" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ status: "draft", stats: { running: 0, completed: 0, failed: 0 } });
    const id = created.body.result.id as string;
    expect((await session.post(`/api/automations/${id}/activate`)).body.result.status).toBe("active");

    const eventId = randomUUID();
    const sentAt = Date.now();
    await leadCaptured(lead, eventId);
    await leadCaptured(lead, eventId); // a redelivery: same ce_id

    const hello = await waitForEmail(lead.email, "Welcome aboard");
    expect(hello.HTML).toContain("Hi Ada");
    await waitForEmail(lead.email, "A day later");
    // PT1H at the test stack's scale is 3.6 s.
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(3_500);

    const runs = await runsOf(session, id, (r) => r[0]?.status === "completed");
    expect(runs).toHaveLength(1);
    expect(runs[0].steps.map((s: { stepId: string; status: string }) => `${s.stepId}:${s.status}`)).toEqual([
      "hello:done",
      "is-vip:done",
      "gold:done",
      "wait:done",
      "follow:done",
      "$end:done",
    ]);
    expect((await session.get(`/api/contacts/${lead.contactId}`)).body.result.tags).toEqual(
      expect.arrayContaining(["vip", "gold"]),
    );
    expect((await session.get(`/api/contacts/${lead.contactId}/automation-runs`)).body.result.result).toHaveLength(1);
    expect((await session.get(`/api/automations/${id}`)).body.result.stats).toEqual({
      running: 0,
      completed: 1,
      failed: 0,
    });
    expect((await mailbox(lead.email)).sort()).toEqual(["A day later", "Welcome aboard"]);
  }, 60_000);

  it("holds a paused automation's runs and goes on when it is activated again", async () => {
    const lead = await setUp("auto-pause", []);
    const { session } = lead;
    const created = await session.post("/api/automations/from-template", { templateId: "review-request" });
    expect(created.status).toBe(201);
    const id = created.body.result.id as string;
    // The template's first step waits a day (86 s here); 7.2 s is enough to pause inside it.
    const steps = [{ id: "short", kind: "wait", duration: "PT2H" }, ...created.body.result.steps.slice(1)];
    await session.put(`/api/automations/${id}`, { name: "Review", trigger: { kind: "lead_captured" }, steps });
    await session.post(`/api/automations/${id}/activate`);
    await session.post(`/api/automations/${id}/pause`);
    // Paused: no new run starts.
    await leadCaptured(lead, randomUUID());
    await new Promise((r) => setTimeout(r, 3000));
    expect((await session.get(`/api/automations/${id}/runs`)).body.result.result).toHaveLength(0);

    await session.post(`/api/automations/${id}/activate`);
    await leadCaptured(lead, randomUUID());
    await runsOf(session, id, (r) => r[0]?.currentStepId === "ask-review");
    await session.post(`/api/automations/${id}/pause`);
    // The wait ends while paused: the step is held, not run.
    await new Promise((r) => setTimeout(r, 8500));
    const held = (await session.get(`/api/automations/${id}/runs`)).body.result.result[0];
    expect(held.status).toBe("running");
    expect(await mailbox(lead.email)).toEqual([]);

    await session.post(`/api/automations/${id}/activate`);
    await waitForEmail(lead.email, "How did we do?");
    const [run] = await runsOf(session, id, (r) => r[0]?.status === "completed");
    expect(run.steps.find((s: { stepId: string }) => s.stepId === "notify-asked")).toMatchObject({ status: "done" });
    const bell = (await session.get("/api/notifications")).body.result.result as { title: string }[];
    expect(bell.filter((n) => n.title === "A review request was sent")).toHaveLength(1);
    expect((await session.get(`/api/contacts/${lead.contactId}`)).body.result.tags).toContain("review-requested");
  }, 60_000);

  it("is not activated with an email step while the business has no postal address, and an email step that finds it removed fails, saying why", async () => {
    const lead = await setUp("auto-addr", [], false);
    const { session } = lead;
    const created = await session.post("/api/automations", {
      name: "Hello",
      trigger: { kind: "lead_captured" },
      steps: [
        { id: "tag", kind: "add_tag", tag: "hello" },
        { id: "hello", kind: "send_email", subject: "Hello there", html: "<p>Hi</p>" },
      ],
    });
    const id = created.body.result.id as string;
    const refused = await session.post(`/api/automations/${id}/activate`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({
      businessAddress:
        "Add your business's postal address to the business profile: every marketing email must carry it",
    });
    expect((await session.get(`/api/automations/${id}`)).body.result.status).toBe("draft");
    // Without an email step it needs no address.
    const tagOnly = await session.post("/api/automations", {
      name: "Tag",
      trigger: { kind: "lead_captured" },
      steps: [{ id: "tag", kind: "add_tag", tag: "t" }],
    });
    expect((await session.post(`/api/automations/${tagOnly.body.result.id}/activate`)).status).toBe(200);
    await session.post(`/api/automations/${tagOnly.body.result.id}/pause`);

    expect((await setAddress(session, lead.profileId, "1 Mill Lane, Bristol")).status).toBe(200);
    expect((await session.post(`/api/automations/${id}/activate`)).body.result.status).toBe("active");
    // Removed after the activation: the step fails with the reason in the run history, nothing is sent.
    expect((await setAddress(session, lead.profileId, "")).status).toBe(200);
    await leadCaptured(lead, randomUUID());
    const [run] = await runsOf(session, id, (r) => r[0]?.status === "failed");
    const steps = run.steps.map((s: { stepId: string; status: string }) => `${s.stepId}:${s.status}`);
    expect(steps).toEqual(["tag:done", "hello:failed", "$end:failed"]);
    expect(run.steps[1].detail).toBe(
      "Not sent: the business profile has no postal address. Add your business's postal address to the business profile: every marketing email must carry it",
    );
    expect(await mailbox(lead.email)).toEqual([]);
  }, 60_000);

  it("answers 400, not 500, to a broken definition, and 404 to someone else's automation", async () => {
    const { session } = await setUp("auto-bad", []);
    const bad = await session.post("/api/automations", {
      name: "Bad",
      trigger: { kind: "tag_added" },
      steps: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ trigger: "trigger.tag: Choose a tag" });
    const wait = await session.post("/api/automations", {
      name: "Bad wait",
      trigger: { kind: "lead_captured" },
      steps: [{ id: "w", kind: "wait", duration: "soon" }],
    });
    expect(wait.status).toBe(400);
    expect((await session.get(`/api/automations/${randomUUID()}`)).status).toBe(404);
    const empty = await session.post("/api/automations", {
      name: "Empty",
      trigger: { kind: "lead_captured" },
      steps: [],
    });
    expect((await session.post(`/api/automations/${empty.body.result.id}/activate`)).status).toBe(400);
    expect((await session.get("/api/automations/templates")).body.result.map((t: { id: string }) => t.id)).toEqual([
      "welcome-series",
      "lead-nurture",
      "re-engagement",
      "review-request",
    ]);
  }, 60_000);
});

describe("a restart in the middle of a wait", () => {
  it("loses no run and repeats no email", async () => {
    const lead = await setUp("auto-restart", []);
    const { session } = lead;
    const created = await session.post("/api/automations", {
      name: "Restart",
      trigger: { kind: "lead_captured" },
      steps: [
        { id: "before", kind: "send_email", subject: "Before the restart", html: "<p>One</p>" },
        // 10.8 s at the test stack's scale: the restart happens inside it.
        { id: "wait", kind: "wait", duration: "PT3H" },
        { id: "after", kind: "send_email", subject: "After the restart", html: "<p>Two</p>" },
      ],
    });
    const id = created.body.result.id as string;
    await session.post(`/api/automations/${id}/activate`);
    const eventId = randomUUID();
    await leadCaptured(lead, eventId);
    await waitForEmail(lead.email, "Before the restart");
    await runsOf(session, id, (r) => r[0]?.currentStepId === "after");

    const stack = (command: string) =>
      execFileSync("node", ["scripts/stack.mjs", command, "--profile", "test", "notifications"], {
        cwd: repoRoot,
        env: process.env,
      });
    stack("down");
    // The same event again while the service is away (Kafka keeps it): no second run.
    await leadCaptured(lead, eventId);
    stack("up");

    await waitForEmail(lead.email, "After the restart", 60_000);
    const runs = await runsOf(session, id, (r) => r[0]?.status === "completed");
    expect(runs).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 2000));
    expect((await mailbox(lead.email)).sort()).toEqual(["After the restart", "Before the restart"]);
  }, 120_000);
});
