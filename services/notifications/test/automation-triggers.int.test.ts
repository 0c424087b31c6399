// Automation triggers beyond LeadCaptured/ContactCreated/ContactTagged, on the test stack: a
// campaign email's open pixel and click redirect (EmailOpened/EmailClicked through the outbox and
// Kafka); a contact coming to match a segment; a birthday today (the date_field scan, every 2 s
// on the test stack); a send_email step that names a saved template (its rendered HTML and subject, read from Mailpit);
// and the per-user `sendgrid_integration` flag, which sends a user's email through a local server
// speaking SendGrid's v3 Mail Send API (the test stack's SENDGRID_API_URL) instead of SMTP.
import { randomUUID } from "node:crypto";
import { GatewaySession, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { LocalSendgridServer, type SendgridMail } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose from "mongoose";

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A verified user with a project and one subscribed contact tagged `tags`. */
async function setUp(prefix: string, tags: string[], fields: Record<string, unknown> = {}, timeZone?: string) {
  const { session } = await verifiedSession(prefix);
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
    ...(timeZone ? { timeZone } : {}),
  });
  expect(project.status).toBe(201);
  const projectId = project.body.result.project.projectId as string;
  // Campaigns are not sent without the business's postal address (CAN-SPAM).
  const address = await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "1 Mill Lane, Bristol" },
  });
  expect(address.status).toBe(200);
  const email = `trig-${randomUUID().slice(0, 8)}@example.test`;
  const contact = await session.post("/api/contacts", { email, firstName: "Ada", tags, ...fields });
  expect(contact.status).toBe(201);
  const contactId = contact.body.result.id as string;
  const consent = await session.request("PATCH", `/api/contacts/${contactId}`, { consent: "subscribed" });
  expect(consent.status).toBe(200);
  return { session, projectId, contactId, email };
}

async function subjects(to: string): Promise<string[]> {
  const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  return ((await response.json()) as { messages: { Subject: string }[] }).messages.map((m) => m.Subject);
}

async function runsOf(session: GatewaySession, id: string, until: (runs: any[]) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let runs: any[] = [];
  while (Date.now() < deadline) {
    runs = (await session.get(`/api/automations/${id}/runs`)).body.result.result;
    if (until(runs)) return runs;
    await sleep(250);
  }
  throw new Error(`runs did not settle: ${JSON.stringify(runs)}`);
}

/** Waits until the segment_entered trigger has appended mark `seq` for the contact (2: it saw it leave). */
async function waitForMark(contactId: string, seq: number, timeoutMs = 60_000): Promise<void> {
  const db = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
      dbName: `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_notifications`,
    })
    .asPromise();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await db.collection("automation_segment_marks").findOne({ contactId, seq })) return;
      await sleep(250);
    }
    throw new Error(`no segment mark ${seq} for ${contactId}`);
  } finally {
    await db.close();
  }
}

/** Saves and activates an automation. @returns its id. */
async function automation(session: GatewaySession, body: Record<string, unknown>): Promise<string> {
  const created = await session.post("/api/automations", body);
  expect(created.status).toBe(201);
  const id = created.body.result.id as string;
  expect((await session.post(`/api/automations/${id}/activate`)).body.result.status).toBe("active");
  return id;
}

describe("email opened and email clicked triggers", () => {
  it("start a run when a campaign email is opened or clicked, once however often it is opened", async () => {
    const tag = `news-${randomUUID().slice(0, 6)}`;
    const user = await setUp("trig-open", [tag]);
    const { session } = user;
    const segment = await session.post(`/api/segments?projectId=${user.projectId}`, {
      name: "News",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
    });
    expect(segment.status).toBeLessThan(300);
    const campaign = await session.post(`/api/email/campaigns?projectId=${user.projectId}`, {
      name: "Spring loaves",
      segmentId: segment.body.result.id,
      subject: "Spring loaves are in",
      html: '<p>Fresh bread. <a href="https://bakery.example/spring">See the loaves</a></p>',
    });
    expect(campaign.status).toBe(201);
    const campaignId = campaign.body.result.id as string;
    // One automation per trigger: opens of this campaign, and clicks of any email of the project.
    const opened = await automation(session, {
      name: "Opened",
      trigger: { kind: "email_opened", campaignId },
      steps: [{ id: "thanks", kind: "send_email", subject: "Thanks for reading", html: "<p>Glad you looked</p>" }],
    });
    const clicked = await automation(session, {
      name: "Clicked",
      trigger: { kind: "email_clicked" },
      steps: [{ id: "more", kind: "send_email", subject: "You clicked", html: "<p>More loaves</p>" }],
    });
    const otherCampaign = await automation(session, {
      name: "Another campaign's opens",
      trigger: { kind: "email_opened", campaignId: randomUUID() },
      steps: [{ id: "no", kind: "send_email", subject: "Never", html: "<p>Never</p>" }],
    });
    expect((await session.post(`/api/email/campaigns/${campaignId}/send`, {})).status).toBe(200);

    const mail = await waitForEmail(user.email, "Spring loaves are in", 60_000);
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(mail.HTML)![1]!.replace(/&amp;/g, "&");
    const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(mail.HTML)![1]!.replace(/&amp;/g, "&");
    const gateway = session.baseUrl;
    expect((await fetch(`${gateway}${new URL(pixel).pathname}`)).status).toBe(200);
    // Seconds alone; but right after email-campaigns' crash test the notifications outbox relay was
    // measured publishing this EmailOpened 3 minutes late (its backlog), hence the long wait.
    await waitForEmail(user.email, "Thanks for reading", 180_000);
    const [run] = await runsOf(session, opened, (r) => r[0]?.status === "completed");
    expect(run).toMatchObject({ contactId: user.contactId, email: user.email });

    // Opened again, and clicked (which counts as an open too): no second open run.
    expect((await fetch(`${gateway}${new URL(pixel).pathname}`)).status).toBe(200);
    expect((await fetch(`${gateway}${new URL(link).pathname}`, { redirect: "manual" })).status).toBe(302);
    await waitForEmail(user.email, "You clicked", 180_000);
    await runsOf(session, clicked, (r) => r[0]?.status === "completed");
    await sleep(2000);
    expect(await runsOf(session, opened, () => true)).toHaveLength(1);
    expect(await runsOf(session, otherCampaign, () => true)).toHaveLength(0);
    expect((await subjects(user.email)).sort()).toEqual(["Spring loaves are in", "Thanks for reading", "You clicked"]);
  }, 300_000);
});

describe("the segment entered trigger", () => {
  it("starts one run when a contact comes to match the segment, none while it stays, one on re-entry", async () => {
    const user = await setUp("trig-seg", []);
    const { session } = user;
    const segment = await session.post(`/api/segments?projectId=${user.projectId}`, {
      name: "Acme people",
      query: { combinator: "and", rules: [{ field: "company", operator: "==", value: "Acme" }] },
    });
    expect(segment.status).toBeLessThan(300);
    const id = await automation(session, {
      name: "Entered Acme",
      trigger: { kind: "segment_entered", segmentId: segment.body.result.id },
      steps: [{ id: "hello", kind: "add_tag", tag: "acme-welcomed" }],
    });
    const patch = (body: Record<string, unknown>) =>
      session.request("PATCH", `/api/contacts/${user.contactId}`, body).then((r) => expect(r.status).toBe(200));

    await patch({ company: "Acme" });
    await runsOf(session, id, (r) => r.length === 1 && r[0].status === "completed");
    // Still matching: an update and a tag change start nothing.
    await patch({ firstName: "Ada Lovelace" });
    await patch({ tags: ["friend"] });
    await sleep(3000);
    expect(await runsOf(session, id, () => true)).toHaveLength(1);
    // Out and back in: a new entry, a new run. The trigger reads the contact as it is when the event
    // is handled, so the test waits until the leaving was seen (mark 2) before coming back.
    await patch({ company: "Globex" });
    await waitForMark(user.contactId, 2);
    await patch({ company: "Acme" });
    const runs = await runsOf(session, id, (r) => r.length === 2 && r.every((x) => x.status === "completed"));
    expect(runs.map((r) => r.contactId)).toEqual([user.contactId, user.contactId]);
    expect((await session.get(`/api/contacts/${user.contactId}`)).body.result.tags).toContain("acme-welcomed");
  }, 60_000);
});

describe("the date field trigger", () => {
  it("starts a run for a contact whose birthday is today (UTC), once, and not for tomorrow's", async () => {
    const user = await setUp("trig-date", []);
    const { session } = user;
    const fields = await session.put(`/api/contacts/settings/custom-fields?projectId=${user.projectId}`, [
      { key: "birthday", label: "Birthday", type: "date" },
    ]);
    expect(fields.status).toBe(200);
    const now = new Date();
    const day = (offset: number) =>
      new Date(Date.UTC(1990, now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
    const today = await session.post("/api/contacts", {
      email: `bday-${randomUUID().slice(0, 8)}@example.test`,
      firstName: "Grace",
      custom: { birthday: day(0) },
    });
    expect(today.status).toBe(201);
    await session.request("PATCH", `/api/contacts/${today.body.result.id}`, { consent: "subscribed" });
    const tomorrow = await session.post("/api/contacts", {
      email: `bday-${randomUUID().slice(0, 8)}@example.test`,
      custom: { birthday: day(1) },
    });
    expect(tomorrow.status).toBe(201);
    const id = await automation(session, {
      name: "Birthday",
      trigger: { kind: "date_field", field: "custom.birthday" },
      steps: [{ id: "card", kind: "send_email", subject: "Happy birthday", html: "<p>Cake is on us</p>" }],
    });
    await waitForEmail(today.body.result.email, "Happy birthday", 30_000);
    // Several scans later (every 2 s), still one run, and none for tomorrow's birthday.
    await sleep(5000);
    const runs = await runsOf(session, id, () => true);
    expect(runs.map((r) => r.contactId)).toEqual([today.body.result.id]);
    expect(await subjects(today.body.result.email)).toEqual(["Happy birthday"]);
  }, 60_000);

  it("counts today in the business's time zone: a business a day ahead of UTC greets its own today", async () => {
    // A zone whose day is not UTC's right now: Kiritimati (UTC+14) from 10:00 UTC, Pago Pago (UTC−11) before 11:00.
    const now = new Date();
    const zone = now.getUTCHours() >= 10 ? "Pacific/Kiritimati" : "Pacific/Pago_Pago";
    const user = await setUp("trig-zone", [], {}, zone);
    const { session } = user;
    const profile = await session.get("/api/projects/active-project");
    expect(profile.body.result.profile.fields.timeZone).toBe(zone);
    await session.put(`/api/contacts/settings/custom-fields?projectId=${user.projectId}`, [
      { key: "birthday", label: "Birthday", type: "date" },
    ]);
    const local = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(now); // YYYY-MM-DD
    const utc = now.toISOString().slice(0, 10);
    expect(local).not.toBe(utc);
    const contact = async (day: string) => {
      const created = await session.post("/api/contacts", {
        email: `zone-${randomUUID().slice(0, 8)}@example.test`,
        custom: { birthday: `1990-${day.slice(5)}` },
      });
      expect(created.status).toBe(201);
      await session.request("PATCH", `/api/contacts/${created.body.result.id}`, { consent: "subscribed" });
      return created.body.result as { id: string; email: string };
    };
    const localToday = await contact(local);
    const utcToday = await contact(utc);
    const id = await automation(session, {
      name: "Birthday",
      trigger: { kind: "date_field", field: "custom.birthday" },
      steps: [{ id: "card", kind: "send_email", subject: "Happy birthday", html: "<p>Cake is on us</p>" }],
    });
    await waitForEmail(localToday.email, "Happy birthday", 30_000);
    await sleep(5000);
    const runs = await runsOf(session, id, () => true);
    expect(runs.map((r) => r.contactId)).toEqual([localToday.id]);
    expect(await subjects(utcToday.email)).toEqual([]);
  }, 60_000);
});

describe("a send_email step that names a template", () => {
  it("sends the template's rendered HTML and subject", async () => {
    const user = await setUp("trig-tpl", []);
    const { session } = user;
    const template = await session.post("/api/email/templates", {
      kind: "email",
      name: "Loaf of the week",
      subject: "This week's loaf",
      mjml: `<mjml><mj-body><mj-section><mj-column>
<mj-text>Hello {{contact.firstName | "friend"}}, this week it is rye.</mj-text>
</mj-column></mj-section></mj-body></mjml>`,
    });
    expect(template.status).toBe(201);
    const id = await automation(session, {
      name: "Weekly loaf",
      trigger: { kind: "tag_added", tag: "weekly" },
      steps: [{ id: "loaf", kind: "send_email", templateId: template.body.result.id }],
    });
    expect((await session.request("PATCH", `/api/contacts/${user.contactId}`, { tags: ["weekly"] })).status).toBe(200);
    const mail = await waitForEmail(user.email, "This week's loaf", 30_000);
    // MJML rendered on the server (its table layout), with the smart value filled for this contact.
    expect(mail.HTML).toContain("Hello Ada, this week it is rye.");
    expect(mail.HTML).toMatch(/<table[^>]*role="presentation"/);
    expect(mail.HTML).not.toContain("<mj-text");
    const [run] = await runsOf(session, id, (r) => r[0]?.status === "completed");
    expect(run.steps.map((s: { stepId: string; status: string }) => `${s.stepId}:${s.status}`)).toEqual([
      "loaf:done",
      "$end:done",
    ]);
  }, 60_000);
});

// The local SendGrid (v3 Mail Send and the rest), on the test stack's SENDGRID_API_URL, knowing the
// platform's key SG.test-key.
const sendgrid = new LocalSendgridServer({ keys: { "SG.test-key": {} } });

beforeAll(async () => {
  const url = new URL(env.SENDGRID_API_URL ?? "http://127.0.0.1:28025");
  await sendgrid.start(Number(url.port), url.hostname);
});

afterAll(async () => {
  await sendgrid.stop();
});

async function adminSession(): Promise<GatewaySession> {
  const session = new GatewaySession();
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

async function sentThroughSendgrid(to: string, subject: string, timeoutMs = 30_000): Promise<SendgridMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const hit = sendgrid.seen.mail.find(
      (m) => m.body.subject === subject && m.body.personalizations[0]?.to[0]?.email === to,
    );
    if (hit) return hit;
    await sleep(250);
  }
  throw new Error(`no SendGrid mail "${subject}" to ${to}`);
}

describe("the sendgrid_integration flag", () => {
  it("sends a user's automation and campaign emails through SendGrid while it is on, SMTP otherwise", async () => {
    const user = await setUp("trig-sg", []);
    const { session } = user;
    const userId = (await session.get("/auth/check")).body.result.user.userId as string;
    const admin = await adminSession();
    const id = await automation(session, {
      name: "Tagged",
      trigger: { kind: "tag_added", tag: "sg" },
      steps: [{ id: "hi", kind: "send_email", subject: "Through SendGrid", html: "<p>Hello from SendGrid</p>" }],
    });

    expect(
      (await admin.put(`/api/admin/users/${userId}/flags`, { flag: "sendgrid_integration", enabled: true })).status,
    ).toBe(200);
    await session.request("PATCH", `/api/contacts/${user.contactId}`, { tags: ["sg"] });
    const mail = await sentThroughSendgrid(user.email, "Through SendGrid");
    expect(mail.key).toBe("SG.test-key");
    expect(mail.body.content.map((c) => c.value).join("")).toContain("Hello from SendGrid");
    await runsOf(session, id, (r) => r[0]?.status === "completed");
    // A campaign to a segment goes the same way.
    const segment = await session.post(`/api/segments?projectId=${user.projectId}`, {
      name: "SG",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "sg" }] },
    });
    const campaign = await session.post(`/api/email/campaigns?projectId=${user.projectId}`, {
      name: "Flagged",
      segmentId: segment.body.result.id,
      subject: "Campaign through SendGrid",
      html: "<p>Loaves</p>",
    });
    expect(campaign.status).toBe(201);
    expect((await session.post(`/api/email/campaigns/${campaign.body.result.id}/send`, {})).status).toBe(200);
    await sentThroughSendgrid(user.email, "Campaign through SendGrid");

    // Off again: the next email (after the stack's 1 s flag cache) goes through SMTP (Mailpit), not SendGrid.
    expect(
      (await admin.put(`/api/admin/users/${userId}/flags`, { flag: "sendgrid_integration", enabled: false })).status,
    ).toBe(200);
    await sleep(1200);
    await session.request("PATCH", `/api/contacts/${user.contactId}`, { tags: [] });
    await session.request("PATCH", `/api/contacts/${user.contactId}`, { tags: ["sg"] });
    await waitForEmail(user.email, "Through SendGrid", 30_000);
    expect(sendgrid.seen.mail.filter((m) => m.body.personalizations[0]?.to[0]?.email === user.email)).toHaveLength(2);
    expect(await subjects(user.email)).toEqual(["Through SendGrid"]);
  }, 90_000);
});
