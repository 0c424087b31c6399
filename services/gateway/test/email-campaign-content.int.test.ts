import { randomUUID } from "node:crypto";
import { type GatewaySession, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// A campaign's content and sender on the real test stack: a campaign sent from an
// EmailWriter craft (the workflows service's offline engine writes it), and the business profile's
// postal address, without which nothing is sent.
jest.setTimeout(120_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ADDRESS = "12 Mill Lane\nBristol BS1 4DJ\nUnited Kingdom";

interface MailpitMessage {
  ID: string;
  To: { Address: string }[];
  Subject: string;
}

async function waitForMail(to: string, timeoutMs = 60_000): Promise<MailpitMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
    const { messages } = (await response.json()) as { messages: MailpitMessage[] };
    if (messages.length > 0) return messages[0]!;
    await sleep(300);
  }
  throw new Error(`no email to ${to}`);
}

async function waitForCampaign(session: GatewaySession, id: string, done: (c: any) => boolean) {
  const deadline = Date.now() + 60_000;
  let last: any;
  while (Date.now() < deadline) {
    last = (await session.get(`/api/email/campaigns/${id}`)).body.result;
    if (done(last)) return last;
    await sleep(300);
  }
  throw new Error(`campaign ${id} did not get there: ${JSON.stringify(last)}`);
}

describe("a campaign from an email craft, with the business's postal address", () => {
  const run = randomUUID().slice(0, 8);
  const tag = `craft-${run}`;
  const to = `reader-${run}@craft.campaign.test`;
  let session: GatewaySession;
  let projectId: string;
  let profileId: string;
  let segmentId: string;
  let craftId: string;
  let draft: { subject: string; preheader: string; body: string };

  beforeAll(async () => {
    ({ session } = await verifiedSession("craftcampaign"));
    const created = await session.post("/api/projects/createProject", {
      name: "Crumb & Co. Bakery",
      description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
    });
    expect(created.status).toBe(201);
    projectId = created.body.result.project.projectId;
    profileId = created.body.result.profile.profileId;

    // The email craft, written by the offline engine: subject lines, then the body.
    const craft = await session.post("/api/workflowsV2", { workflowName: "EmailWriter" });
    expect(craft.status).toBe(201);
    craftId = craft.body.result.craftId;
    const brief = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "brief",
      values: { emailType: "promotion", topic: "Our spring sourdough classes" },
    });
    expect(brief.status).toBe(200);
    const body = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "body",
      values: { subject: `Bake with us this spring ${run}`, preheader: "Four Saturdays, one starter" },
    });
    expect(body.status).toBe(200);
    const html: string = body.body.result.craft.steps.find((s: { name: string }) => s.name === "body").results[0]
      .content;
    const { splitDraft } = await import("@crafter/email-language");
    draft = splitDraft(html);
    expect(draft.subject).not.toBe("");

    // One subscribed contact in a segment (through the API: added pending, then subscribed).
    const contact = await session.post(`/api/contacts?projectId=${projectId}`, {
      email: to,
      firstName: "Robin",
      tags: [tag],
    });
    expect(contact.status).toBe(201);
    const subscribed = await session.request(
      "PATCH",
      `/api/contacts/${contact.body.result.id}?projectId=${projectId}`,
      {
        consent: "subscribed",
      },
    );
    expect(subscribed.status).toBe(200);
    const segment = await session.post(`/api/segments?projectId=${projectId}`, {
      name: `Tag ${tag}`,
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
    });
    expect(segment.status).toBeLessThan(300);
    segmentId = segment.body.result.id;
  });

  it("takes the craft's subject, preheader and body as its content", async () => {
    const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: "Spring classes",
      segmentId,
      craftId,
    });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ craftId, subject: draft.subject, preheader: draft.preheader });
    expect(created.body.result.html).toContain("</html>");
    expect(created.body.result.html).not.toContain("Subject:");
  });

  it("is not sent or scheduled while the business profile has no postal address", async () => {
    const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: "No address yet",
      segmentId,
      craftId,
    });
    const id = created.body.result.id;
    const send = await session.post(`/api/email/campaigns/${id}/send`, {});
    expect(send.status).toBe(400);
    expect(send.body.error.fields.businessAddress).toMatch(/postal address to the business profile/);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const schedule = await session.post(`/api/email/campaigns/${id}/schedule`, { at: later });
    expect(schedule.status).toBe(400);
    expect((await session.get(`/api/email/campaigns/${id}`)).body.result.status).toBe("draft");
    expect(await session.request("DELETE", `/api/email/campaigns/${id}`, {})).toMatchObject({ status: 200 });
  });

  it("lands in Mailpit with the craft's subject and text, the unsubscribe link and the address", async () => {
    const tooLong = await session.request("PATCH", `/api/profiles/${profileId}`, {
      values: { address: "x".repeat(501) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.fields.address).toBe("Postal address must be at most 500 characters");
    const saved = await session.request("PATCH", `/api/profiles/${profileId}`, { values: { address: ADDRESS } });
    expect(saved.status).toBe(200);
    expect(saved.body.result.fields.address).toBe(ADDRESS);
    const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: "Spring classes, sent",
      segmentId,
      craftId,
    });
    const sent = await session.post(`/api/email/campaigns/${created.body.result.id}/send`, {});
    expect(sent.status).toBe(200);
    await waitForCampaign(session, created.body.result.id, (c) => c.status === "sent");

    const summary = await waitForMail(to);
    expect(summary.Subject).toBe(draft.subject);
    const message = (await (await fetch(`${mailpit}/api/v1/message/${summary.ID}`)).json()) as {
      HTML: string;
      Text: string;
    };
    // Every plain paragraph of the craft's body is in the text part.
    const paragraphs = [...draft.body.matchAll(/<p>([^<&]{20,})<\/p>/g)].map((m) => m[1]!.trim());
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const paragraph of paragraphs) expect(message.Text).toContain(paragraph);
    expect(message.Text).toContain("12 Mill Lane, Bristol BS1 4DJ, United Kingdom");
    expect(message.HTML).toContain("12 Mill Lane, Bristol BS1 4DJ, United Kingdom");
    expect(message.HTML).toMatch(/href="http:\/\/localhost:\d+\/preferences\/[\w.-]+"[^>]*>Unsubscribe</);
    const headers = (await (await fetch(`${mailpit}/api/v1/message/${summary.ID}/headers`)).json()) as Record<
      string,
      string[]
    >;
    expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
    expect(headers["List-Unsubscribe"]![0]).toMatch(/^<http:\/\/localhost:\d+\/api\/public\/unsubscribe\/[\w.-]+>$/);
  });

  it("sends a test email to any address, with placeholder consent links, and refuses a bad address", async () => {
    const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: "Spring classes, a test",
      segmentId,
      craftId,
    });
    const id = created.body.result.id;
    const bad = await session.post(`/api/email/campaigns/${id}/test`, { email: "colleague@" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.email).toBe("Invalid email");
    const reviewer = `Reviewer-${run}@Craft.Campaign.test`;
    const test = await session.post(`/api/email/campaigns/${id}/test`, { email: ` ${reviewer} ` });
    expect(test.status).toBe(200);
    const summary = await waitForMail(reviewer.toLowerCase());
    expect(summary.Subject).toBe(`[Test] ${draft.subject}`);
    const message = (await (await fetch(`${mailpit}/api/v1/message/${summary.ID}`)).json()) as { HTML: string };
    expect(message.HTML).toMatch(/href="http:\/\/localhost:\d+\/preferences\/test"[^>]*>Unsubscribe</);
    expect(message.HTML).toContain("12 Mill Lane, Bristol BS1 4DJ, United Kingdom");
    // A test is not a send: the campaign is still a draft.
    expect((await session.get(`/api/email/campaigns/${id}`)).body.result.status).toBe("draft");
  });

  it("refuses a craft that is not an email or not the caller's, without a 500", async () => {
    const blog = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
    const notEmail = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      craftId: blog.body.result.craftId,
    });
    expect(notEmail.status).toBe(400);
    expect(notEmail.body.error.fields.craftId).toBe("Choose an email craft");
    const unwritten = await session.post("/api/workflowsV2", { workflowName: "EmailWriter" });
    const empty = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      craftId: unwritten.body.result.craftId,
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.craftId).toMatch(/no email yet/);
    const both = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      craftId,
      templateId: "predefined-newsletter",
    });
    expect(both.status).toBe(400);
    // Choosing the craft for a campaign made from a template drops the template.
    const fromTemplate = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
      templateId: "predefined-newsletter",
    });
    const switched = await session.put(`/api/email/campaigns/${fromTemplate.body.result.id}`, {
      craftId,
      subject: "",
    });
    expect(switched.status).toBe(200);
    expect(switched.body.result).toMatchObject({ craftId, subject: draft.subject });
    expect(switched.body.result.templateId ?? "").toBe("");
    const { session: stranger } = await verifiedSession("craftstranger");
    await stranger.post("/api/projects/createProject", {
      name: "Other",
      description: "Another business entirely, with its own crafts and campaigns.",
    });
    expect((await stranger.post("/api/email/campaigns", { craftId })).status).toBe(404);
  });
});
