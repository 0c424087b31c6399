// Consent counts and "Ask for permission" through the gateway and the real services (test stack of
// scripts/stack.mjs): the table's, the segment preview's and the segments list's counts by consent;
// the double opt-in email to a segment's pending contacts, read from Mailpit (one per contact, even
// for two requests at once), none again within 30 days, and its link subscribing the contact.
import { type GatewaySession, gatewayUrl, linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { patch, userWithProject } from "./helpers";

jest.setTimeout(120_000);

const SUBJECT = "Please confirm your subscription";

/** Every message Mailpit holds for `to`. */
async function mailsTo(to: string): Promise<Array<{ ID: string; Subject: string }>> {
  const api = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  return ((await response.json()) as { messages: Array<{ ID: string; Subject: string }> }).messages;
}

/** Polls a request for permission until it is done. */
async function finished(s: GatewaySession, id: string) {
  for (let i = 0; i < 60; i++) {
    const got = await s.get(`/api/contacts/consent-requests/${id}`);
    expect(got.status).toBe(200);
    if (got.body.result.done) return got.body.result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the request for permission did not finish");
}

let owner: GatewaySession;
const tag = `ask-${Date.now()}`;
const pending = [uniqueEmail("ask-a"), uniqueEmail("ask-b"), uniqueEmail("ask-c")];
const subscribed = uniqueEmail("ask-sub");
const unsubscribed = uniqueEmail("ask-unsub");
const outside = uniqueEmail("ask-out");
const ids = new Map<string, string>();
let segmentId: string;

beforeAll(async () => {
  ({ session: owner } = await userWithProject("consent-asks"));
  for (const email of [...pending, subscribed, unsubscribed, outside]) {
    const made = await owner.post("/api/contacts", {
      email,
      firstName: email.slice(0, 5),
      tags: email === outside ? [] : [tag],
    });
    expect(made.status).toBe(201);
    ids.set(email, made.body.result.id);
  }
  expect((await patch(owner, `/api/contacts/${ids.get(subscribed)}`, { consent: "subscribed" })).status).toBe(200);
  expect((await patch(owner, `/api/contacts/${ids.get(unsubscribed)}`, { consent: "unsubscribed" })).status).toBe(200);
  const saved = await owner.post("/api/segments", {
    name: "Ask them",
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  expect(saved.status).toBe(201);
  segmentId = saved.body.result.id;
});

describe("consent counts", () => {
  const segmentCounts = { total: 5, subscribed: 1, pending: 3, unsubscribed: 1, bounced: 0, complained: 0 };

  it("counts the table's contacts by consent, whichever consent filter is on", async () => {
    const all = await owner.get("/api/contacts");
    expect(all.status).toBe(200);
    expect(all.body.result.meta.consent).toEqual({ ...segmentCounts, total: 6, pending: 4 });
    const onlyPending = await owner.get("/api/contacts?consent=pending");
    expect(onlyPending.body.result.meta.count).toBe(4);
    expect(onlyPending.body.result.meta.consent).toEqual({ ...segmentCounts, total: 6, pending: 4 });
    const ofSegment = await owner.get(`/api/contacts?segmentId=${segmentId}&consent=unsubscribed`);
    expect(ofSegment.body.result.result.map((c: { email: string }) => c.email)).toEqual([unsubscribed]);
    expect(ofSegment.body.result.meta.consent).toEqual(segmentCounts);
  });

  it("gives the segment builder's live count and the segments list their consent counts", async () => {
    const preview = await owner.post("/api/segments/preview", {
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.result).toMatchObject({ count: 5, consent: segmentCounts });
    const other = await owner.post("/api/segments", {
      name: "Nobody",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: `${tag}-nobody` }] },
    });
    expect(other.status).toBe(201);
    const list = await owner.get("/api/segments?counts=true");
    expect(list.status).toBe(200);
    const byId = new Map(list.body.result.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(segmentId)).toMatchObject({ name: "Ask them", counts: segmentCounts });
    expect(byId.get(other.body.result.id)).toMatchObject({
      counts: { ...segmentCounts, total: 0, subscribed: 0, pending: 0, unsubscribed: 0 },
    });
    // Without the flag nothing is counted.
    expect((await owner.get("/api/segments")).body.result[0].counts).toBeUndefined();
    expect((await owner.get("/api/segments?counts=maybe")).status).toBe(400);
  });
});

describe("Ask for permission", () => {
  it("refuses bad targets without a 500", async () => {
    expect((await owner.post("/api/contacts/consent-requests/preview", { segmentId: "no-such" })).status).toBe(404);
    const both = await owner.post("/api/contacts/consent-requests/preview", { segmentId, query: { rules: [] } });
    expect(both.status).toBe(400);
    const badTree = await owner.post("/api/contacts/consent-requests", {
      query: { combinator: "and", rules: [{ field: "nope", operator: "=", value: 1 }] },
    });
    expect(badTree.status).toBe(400);
    expect((await owner.post("/api/contacts/consent-requests", { segmentId: "x".repeat(65) })).status).toBe(400);
    expect((await owner.get("/api/contacts/consent-requests/no-such-run")).status).toBe(404);
    expect((await owner.post("/api/contacts/consent-requests/preview", "[]")).status).toBe(400);
  });

  it("emails each pending contact of the segment once, even for two requests at once", async () => {
    const preview = await owner.post("/api/contacts/consent-requests/preview", { segmentId });
    expect(preview.status).toBe(200);
    expect(preview.body.result).toEqual({ pending: 3, eligible: 3, recentlyAsked: 0 });

    const [first, second] = await Promise.all([
      owner.post("/api/contacts/consent-requests", { segmentId }),
      owner.post("/api/contacts/consent-requests", { segmentId }),
    ]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const runs = await Promise.all([finished(owner, first.body.result.id), finished(owner, second.body.result.id)]);
    // Each run accounts for the three pending contacts (sent, or skipped: asked by the other run,
    // before it started or by winning the contact's key); between them, each was asked once.
    for (const run of runs) expect(run.sent + run.skipped).toBe(3);
    expect(runs[0].sent + runs[1].sent).toBe(3);

    for (const email of pending) await waitForEmail(email, SUBJECT);
    // Give a duplicate time to arrive: the relay and the notifications consumer run within a second.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const email of pending) {
      expect((await mailsTo(email)).filter((m) => m.Subject.startsWith(SUBJECT))).toHaveLength(1);
    }
    // Not the segment's subscribed or unsubscribed contacts, nor a pending contact outside it.
    for (const email of [subscribed, unsubscribed, outside]) expect(await mailsTo(email)).toHaveLength(0);
  });

  it("asks nobody again within 30 days", async () => {
    const preview = await owner.post("/api/contacts/consent-requests/preview", { segmentId });
    expect(preview.body.result).toEqual({ pending: 3, eligible: 0, recentlyAsked: 3 });
    const again = await owner.post("/api/contacts/consent-requests", { segmentId });
    expect(again.status).toBe(201);
    expect(again.body.result).toMatchObject({ total: 0, sent: 0, skipped: 3, done: true });
    // The whole project: only the pending contact outside the segment is left to ask.
    const everyone = await owner.post("/api/contacts/consent-requests/preview", {});
    expect(everyone.body.result).toEqual({ pending: 4, eligible: 1, recentlyAsked: 3 });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const email of pending) {
      expect((await mailsTo(email)).filter((m) => m.Subject.startsWith(SUBJECT))).toHaveLength(1);
    }
  });

  it("subscribes the contact who follows the email's link", async () => {
    const email = pending[0]!;
    const message = await waitForEmail(email, SUBJECT);
    const token = linkFrom(message, "/confirm").searchParams.get("token")!;
    const confirm = () =>
      fetch(`${gatewayUrl()}/api/public/consent/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: gatewayUrl() },
        body: JSON.stringify({ token }),
      });
    const confirmed = await confirm();
    expect(confirmed.status).toBe(200);
    expect((await confirmed.json()).result).toMatchObject({ consent: "subscribed" });
    expect((await confirm()).status).toBe(200);
    const contact = await owner.get(`/api/contacts/${ids.get(email)}`);
    expect(contact.body.result.consent).toBe("subscribed");
    expect(contact.body.result.consentHistory.at(-1)).toMatchObject({ status: "subscribed", source: "double opt-in" });
    const counts = (await owner.get(`/api/contacts?segmentId=${segmentId}`)).body.result.meta.consent;
    expect(counts).toMatchObject({ subscribed: 2, pending: 2 });
  });
});
