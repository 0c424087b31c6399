import { createHash, randomUUID } from "node:crypto";
import { databaseName } from "@crafter/kit";
import { GatewaySession, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Approval links on the real test stack: the gateway, notifications (links, events, in-app notices,
// the owner's email through Mailpit), workflows (an EmailWriter craft written by the offline engine).
jest.setTimeout(120_000);

const env = stackEnv();

async function createProject(session: GatewaySession, name: string): Promise<string> {
  const created = await session.post("/api/projects/createProject", { name, description: `${name}, for tests` });
  expect(created.status).toBe(201);
  return created.body.result.project.projectId as string;
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** A client address of its own per run (the test stack trusts one proxy), so reruns start under the limits. */
const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

/** A reviewer: no account, no cookies, one address. */
class Reviewer {
  readonly session = new GatewaySession();
  constructor(readonly ip = randomIp()) {}
  get = (path: string) => this.session.request("GET", path, undefined, { "x-forwarded-for": this.ip });
  post = (path: string, body: unknown) => this.session.request("POST", path, body, { "x-forwarded-for": this.ip });
}

describe("an approval link", () => {
  const run = randomUUID().slice(0, 8);
  const reviewer = new Reviewer();
  let owner: GatewaySession;
  let ownerEmail: string;
  let projectId: string;
  let craftId: string;
  let campaignId: string;
  let db: mongoose.Connection;

  beforeAll(async () => {
    ({ session: owner, email: ownerEmail } = await verifiedSession("approver"));
    projectId = await createProject(owner, "Crumb & Co. Bakery");
    const craft = await owner.post("/api/workflowsV2", { workflowName: "EmailWriter" });
    expect(craft.status).toBe(201);
    craftId = craft.body.result.craftId;
    await owner.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "brief",
      values: { emailType: "promotion", topic: "Our spring sourdough classes" },
    });
    const body = await owner.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "body",
      values: { subject: `Bake with us ${run}`, preheader: "Four Saturdays, one starter" },
    });
    expect(body.status).toBe(200);
    const campaign = await owner.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: `Spring classes ${run}`,
      subject: 'Hello {{contact.firstName | "there"}}',
      html: '<p>Hello {{contact.firstName | "there"}}, <b>classes</b> start soon.</p>',
    });
    expect(campaign.status).toBe(201);
    campaignId = campaign.body.result.id;
    db = await mongoose
      .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: databaseName(process.env.CRAFTER_NAMESPACE ?? env.CRAFTER_NAMESPACE ?? "crafter", "notifications"),
        serverSelectionTimeoutMS: 5000,
      })
      .asPromise();
  });

  afterAll(async () => {
    await db?.close();
  });

  const danaEmail = `dana-${run}@review.test`;
  const share = (subjectKind: string, subjectId: string, extra: Record<string, unknown> = {}) =>
    owner.post("/api/approvals", { projectId, subjectKind, subjectId, ...extra });

  it("is read, commented and approved by a reviewer without an account; the owner is told in-app and by email", async () => {
    const created = await share("craft", craftId, { reviewerName: "Dana", reviewerEmail: danaEmail });
    expect(created.status).toBe(201);
    expect(created.body.result.link).toMatchObject({
      status: "active",
      reviewerName: "Dana",
      subjectId: craftId,
      emailStatus: "sent",
    });
    const token = tokenOf(created.body.result.url);
    expect(new URL(created.body.result.url).pathname).toBe(`/review/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The default expiry: 7 days.
    const days =
      (Date.parse(created.body.result.link.expiresAt) - Date.parse(created.body.result.link.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    // Only the token's hash is stored: nothing in the database is the link.
    const stored = await db.collection("approval_links").findOne({ linkId: created.body.result.link.id });
    expect(stored?._id).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);

    const read = await reviewer.get(`/api/public/reviews/${token}`);
    expect(read.status).toBe(200);
    expect(read.body.result.state.state).toBe("awaiting");
    // The dashboard's reviewer page itself: served, kept out of search engines, its address not sent to other sites.
    const pageResponse = await fetch(`${owner.baseUrl}/review/${token}`);
    expect(pageResponse.status).toBe(200);
    expect(pageResponse.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(pageResponse.headers.get("referrer-policy")).toBe("same-origin");
    expect(read.body.result.sections.length).toBeGreaterThan(0);
    expect(read.body.result.sections.map((s: { html: string }) => s.html).join("")).toContain(`Bake with us ${run}`);

    const comment = await reviewer.post(`/api/public/reviews/${token}/events`, {
      kind: "comment",
      body: "Lovely. Could the second paragraph be shorter?",
      authorName: "Dana",
    });
    expect(comment.status).toBe(201);
    const approved = await reviewer.post(`/api/public/reviews/${token}/events`, {
      kind: "approved",
      authorName: "Dana",
    });
    expect(approved.status).toBe(201);
    expect(approved.body.result.state.state).toBe("approved");

    const list = await owner.get(`/api/approvals?projectId=${projectId}&subjectKind=craft&subjectId=${craftId}`);
    expect(list.status).toBe(200);
    expect(list.body.result.state.state).toBe("approved");
    expect(list.body.result.events.map((e: { kind: string }) => e.kind)).toEqual(["comment", "approved"]);
    expect(list.body.result.links[0]).toMatchObject({
      status: "active",
      reviewerEmail: danaEmail,
      emailStatus: "sent",
    });

    const inbox = await owner.get("/api/notifications");
    const titles = inbox.body.result.result.map((n: { title: string }) => n.title);
    expect(titles.some((t: string) => t.startsWith("Dana approved"))).toBe(true);
    expect(titles.some((t: string) => t.startsWith("Dana commented on"))).toBe(true);
    const email = await waitForEmail(ownerEmail, "Dana approved");
    expect(email.Text).toContain("/app/crafts/EmailWriter?craftId=");
  });

  it("emails the reviewer their link once, from the business, and the owner sees it was emailed", async () => {
    // The link made in the first case, to Dana's address.
    const email = await waitForEmail(danaEmail, "asks for your review");
    expect(email.Subject).toContain("Crumb & Co. Bakery");
    const from = (email as unknown as { From: { Name: string; Address: string } }).From;
    expect(from.Name).toBe("Crumb & Co. Bakery");
    const link = linkFrom(email, "/review/");
    expect(link.pathname).toMatch(/^\/review\/[A-Za-z0-9_-]{43}$/);
    expect((await reviewer.get(`/api/public/reviews/${tokenOf(link.href)}`)).status).toBe(200);
    expect(email.HTML).toContain("Crumb &amp; Co. Bakery");
    // Sent once: the retry job (every 2 s on the test stack) finds nothing left to send for it.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const api = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
    const found = (await (
      await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${danaEmail}"`)}`)
    ).json()) as { messages: { Subject: string }[] };
    expect(found.messages.filter((m) => m.Subject.includes("asks for your review"))).toHaveLength(1);
    // A link without a reviewer email sends nothing and says so.
    const bare = await share("campaign", campaignId);
    expect(bare.body.result.link.emailStatus).toBe("none");
  });

  it("answers the approval state of a page of items in one request", async () => {
    const unknown = randomUUID();
    const crafts = await owner.get(
      `/api/approvals/states?projectId=${projectId}&subjectKind=craft&ids=${craftId},${unknown}`,
    );
    expect(crafts.status).toBe(200);
    expect(crafts.body.result.states).toEqual([
      expect.objectContaining({ subjectId: craftId, state: "approved", reviewer: "Dana" }),
      { subjectId: unknown, state: "none", since: null, reviewer: "" },
    ]);
    const fresh = await owner.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: `States ${run}`,
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    const freshId = fresh.body.result.id as string;
    await share("campaign", freshId, { reviewerName: "Lee" });
    const campaigns = await owner.get(
      `/api/approvals/states?projectId=${projectId}&subjectKind=campaign&ids=${freshId}`,
    );
    expect(campaigns.body.result.states).toEqual([
      expect.objectContaining({ subjectId: freshId, state: "awaiting", reviewer: "Lee" }),
    ]);
    // The campaigns list filters by the same state.
    const awaiting = await owner.get(`/api/email/campaigns?projectId=${projectId}&approval=awaiting`);
    expect(awaiting.status).toBe(200);
    expect(awaiting.body.result.result.map((c: { id: string }) => c.id)).toContain(freshId);
    const approvedOnly = await owner.get(`/api/email/campaigns?projectId=${projectId}&approval=approved`);
    expect(approvedOnly.body.result.result.map((c: { id: string }) => c.id)).not.toContain(freshId);
    expect((await owner.get(`/api/email/campaigns?projectId=${projectId}&approval=maybe`)).status).toBe(400);
    const tooMany = Array.from({ length: 101 }, (_, i) => `c${i}`).join(",");
    expect((await owner.get(`/api/approvals/states?subjectKind=craft&ids=${tooMany}`)).status).toBe(400);
    expect((await owner.get("/api/approvals/states?subjectKind=page&ids=a")).status).toBe(400);
  });

  it("asks for changes with a comment only", async () => {
    const created = await share("craft", craftId);
    const token = tokenOf(created.body.result.url);
    const bare = await reviewer.post(`/api/public/reviews/${token}/events`, { kind: "changes_requested" });
    expect(bare.status).toBe(400);
    expect(bare.body.error.fields.body).toBeTruthy();
    const asked = await reviewer.post(`/api/public/reviews/${token}/events`, {
      kind: "changes_requested",
      body: "Please add the price.",
    });
    expect(asked.status).toBe(201);
    const list = await owner.get(`/api/approvals?projectId=${projectId}&subjectKind=craft&subjectId=${craftId}`);
    expect(list.body.result.state.state).toBe("changes_requested");
    await waitForEmail(ownerEmail, "asked for changes to");
  });

  it("shows a campaign's email as it will be sent, with smart values at their fallbacks and no tracking", async () => {
    const created = await share("campaign", campaignId, { expiresInDays: 2 });
    expect(created.status).toBe(201);
    const read = await reviewer.get(`/api/public/reviews/${tokenOf(created.body.result.url)}`);
    expect(read.status).toBe(200);
    expect(read.body.result.subject).toBe("Hello there");
    const html = read.body.result.sections[0].html as string;
    expect(html).toContain("Hello there, <b>classes</b>");
    expect(html).toContain("Crumb &amp; Co. Bakery");
    expect(html).not.toContain("/t/o/");
  });

  it("stops working at once when revoked, and is refused when expired or altered", async () => {
    const created = await share("campaign", campaignId);
    const token = tokenOf(created.body.result.url);
    expect((await reviewer.get(`/api/public/reviews/${token}`)).status).toBe(200);
    const revoked = await owner.post(`/api/approvals/${created.body.result.link.id}/revoke?projectId=${projectId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.result.link.status).toBe("revoked");
    const gone = await reviewer.get(`/api/public/reviews/${token}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe("REVIEW_LINK_GONE");
    const late = await reviewer.post(`/api/public/reviews/${token}/events`, { kind: "approved" });
    expect(late.status).toBe(410);
    // Revoking again changes nothing.
    expect(
      (await owner.post(`/api/approvals/${created.body.result.link.id}/revoke?projectId=${projectId}`)).status,
    ).toBe(200);

    const other = await share("campaign", campaignId);
    const otherToken = tokenOf(other.body.result.url);
    await db
      .collection("approval_links")
      .updateOne({ linkId: other.body.result.link.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await reviewer.get(`/api/public/reviews/${otherToken}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe("REVIEW_LINK_GONE");

    const live = await share("campaign", campaignId);
    const liveToken = tokenOf(live.body.result.url);
    const flipped = `${liveToken.slice(0, -1)}${liveToken.endsWith("A") ? "B" : "A"}`;
    for (const bad of [flipped, liveToken.slice(0, 20), `${liveToken}x`, "%00", "a".repeat(199)]) {
      const answer = await reviewer.get(`/api/public/reviews/${encodeURIComponent(bad)}`);
      expect(answer.status).toBe(404);
      expect(answer.body.success).toBe(false);
    }
    const list = await owner.get(`/api/approvals?projectId=${projectId}&subjectKind=campaign&subjectId=${campaignId}`);
    const statuses = Object.fromEntries(
      list.body.result.links.map((l: { id: string; status: string }) => [l.id, l.status]),
    );
    expect(statuses[created.body.result.link.id]).toBe("revoked");
    expect(statuses[other.body.result.link.id]).toBe("expired");
    expect(statuses[live.body.result.link.id]).toBe("active");
  });

  it("made by a team member tells that member, not the owner", async () => {
    const { session: member, email: memberEmail } = await verifiedSession("approval-member");
    const sent = await owner.post(`/api/projects/${projectId}/invites`, { email: memberEmail, role: "projectAdmin" });
    expect(sent.status).toBe(201);
    const invite = linkFrom(await waitForEmail(memberEmail, "You are invited to a project"), "/app/invite");
    const accepted = await member.post("/api/projects/invites/accept", { token: invite.searchParams.get("token") });
    expect(accepted.status).toBe(200);

    const created = await member.post("/api/approvals", { projectId, subjectKind: "campaign", subjectId: campaignId });
    expect(created.status).toBe(201);
    const token = tokenOf(created.body.result.url);
    const title = `Sam ${run} approved`;
    expect(
      (await reviewer.post(`/api/public/reviews/${token}/events`, { kind: "approved", authorName: `Sam ${run}` }))
        .status,
    ).toBe(201);
    const email = await waitForEmail(memberEmail, title);
    expect(email.Text).toContain(`/app/email/campaigns/${campaignId}`);
    const theirs = await member.get("/api/notifications");
    expect(theirs.body.result.result.some((n: { title: string }) => n.title.startsWith(title))).toBe(true);
    const owners = await owner.get("/api/notifications");
    expect(owners.body.result.result.some((n: { title: string }) => n.title.startsWith(title))).toBe(false);
    // The owner sees the member's link on the campaign and may revoke it.
    const list = await owner.get(`/api/approvals?projectId=${projectId}&subjectKind=campaign&subjectId=${campaignId}`);
    expect(list.body.result.links.map((l: { id: string }) => l.id)).toContain(created.body.result.link.id);
  });

  it("is neither listed nor revoked by a member of another project, nor made for their items", async () => {
    const created = await share("craft", craftId);
    const { session: outsider } = await verifiedSession("outsider");
    const theirs = await createProject(outsider, "Other shop");
    const list = await outsider.get(`/api/approvals?projectId=${theirs}&subjectKind=craft&subjectId=${craftId}`);
    expect(list.status).toBe(200);
    expect(list.body.result.links).toEqual([]);
    expect(list.body.result.events).toEqual([]);
    const revoke = await outsider.post(`/api/approvals/${created.body.result.link.id}/revoke?projectId=${theirs}`);
    expect(revoke.status).toBe(404);
    // Not in the owner's project either (the gateway refuses a project they are not in).
    const intoOwners = await outsider.get(
      `/api/approvals?projectId=${projectId}&subjectKind=craft&subjectId=${craftId}`,
    );
    expect([403, 404]).toContain(intoOwners.status);
    const steal = await outsider.post("/api/approvals", {
      projectId: theirs,
      subjectKind: "campaign",
      subjectId: campaignId,
    });
    expect(steal.status).toBe(404);
    // The link still works for its reviewer.
    expect((await reviewer.get(`/api/public/reviews/${tokenOf(created.body.result.url)}`)).status).toBe(200);
  });

  it("limits a reviewer's writes per address", async () => {
    const created = await share("craft", craftId);
    const token = tokenOf(created.body.result.url);
    const flood = new Reviewer();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        (await flood.post(`/api/public/reviews/${token}/events`, { kind: "comment", body: `n${i}` })).status,
      );
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another reviewer's address is not held back.
    expect(
      (await new Reviewer().post(`/api/public/reviews/${token}/events`, { kind: "comment", body: "ok" })).status,
    ).toBe(201);
  });

  it("is in the OpenAPI document with its error codes", async () => {
    const response = await fetch(`${owner.baseUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, { responses: object }>> };
    for (const [path, method] of [
      ["/api/approvals", "post"],
      ["/api/approvals", "get"],
      ["/api/approvals/states", "get"],
      ["/api/approvals/{id}/revoke", "post"],
      ["/api/public/reviews/{token}", "get"],
      ["/api/public/reviews/{token}/events", "post"],
    ] as const)
      expect(document.paths[path]?.[method]).toBeDefined();
    expect(Object.keys(document.paths["/api/public/reviews/{token}"]!.get!.responses)).toEqual(
      expect.arrayContaining(["200", "404", "410", "429"]),
    );
  });

  it("refuses bad input with field errors, never a 500", async () => {
    const cases: Array<[string, unknown]> = [
      ["/api/approvals", { projectId, subjectKind: "page", subjectId: craftId }],
      ["/api/approvals", { projectId, subjectKind: "craft", subjectId: "" }],
      ["/api/approvals", { projectId, subjectKind: "craft", subjectId: craftId, expiresInDays: 31 }],
      ["/api/approvals", { projectId, subjectKind: "craft", subjectId: craftId, reviewerEmail: "not-an-email" }],
      ["/api/approvals", { projectId, subjectKind: "craft", subjectId: craftId, reviewerName: 7 }],
    ];
    for (const [path, body] of cases) {
      const answer = await owner.post(path, body);
      expect(answer.status).toBe(400);
    }
    const missing = await share("craft", randomUUID());
    expect(missing.status).toBe(404);
    const created = await share("craft", craftId);
    const token = tokenOf(created.body.result.url);
    for (const body of [
      { kind: "vote" },
      { kind: "comment", body: "" },
      { kind: "comment", body: "x".repeat(5001) },
      [],
    ]) {
      const answer = await reviewer.post(`/api/public/reviews/${token}/events`, body);
      expect(answer.status).toBe(400);
    }
  });
});
