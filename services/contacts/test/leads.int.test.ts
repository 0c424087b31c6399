// Lead capture through the gateway and the real services (test stack of scripts/stack.mjs): the
// public lead form through double opt-in (the email read from Mailpit), the honeypot and the rate
// limit, cross-origin rules, one-click unsubscribe and the preference centre, the lead assistant
// capturing a lead, the notifications-only RPCs, and the profile limit read from billing's GetPlan.
import { createServiceClient } from "@crafter/kit";
import {
  type GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";
import { createStores as billingStores } from "../../billing/src/store";
import { rawGet, userWithProject } from "./helpers";

jest.setTimeout(120_000);

const contactsAsNotifications = () =>
  createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, {
    timeoutMs: 20_000,
    as: "service",
    credentials: stackServiceCredentials("notifications"),
  });

/** The user id of a session (the access token's subject). */
function userIdOf(s: GatewaySession): string {
  const token = s.cookies.get("crafter_at")!;
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
}

/** A public request with no cookie, as a visitor's browser on `origin` (or a mail server: no origin). */
async function visitor(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gatewayUrl()}${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const own = () => ({ origin: gatewayUrl() });

async function contactByEmail(s: GatewaySession, email: string) {
  const list = await s.get(`/api/contacts?q=${encodeURIComponent(email)}`);
  return list.body.result.result.find((c: { email: string }) => c.email === email);
}

let owner: GatewaySession;
let formId: string;
let profileId: string;
const LOGO = "https://cdn.crumb.example/logo.png";

beforeAll(async () => {
  ({ session: owner, profileId } = await userWithProject("leads-owner"));
  const saved = await owner.put("/api/leads/form", {
    title: "Bread club",
    fields: [
      { key: "email", label: "Email", type: "email", required: true },
      { key: "firstName", label: "First name", type: "text", required: true },
      { key: "company", label: "Company", type: "text", required: false },
    ],
    consentText: "I agree to receive the bread club's emails.",
    thankYouMessage: "Thanks! Check your inbox.",
    doubleOptIn: true,
  });
  expect(saved.status).toBe(200);
  formId = saved.body.result.id;
});

describe("lead form and double opt-in", () => {
  it("keeps one form per project and refuses unknown fields", async () => {
    const got = await owner.get("/api/leads/form");
    expect(got.body.result).toMatchObject({ id: formId, title: "Bread club", doubleOptIn: true });
    expect(got.body.result.fields.map((f: { key: string }) => f.key)).toEqual(["email", "firstName", "company"]);
    const bad = await owner.put("/api/leads/form", {
      title: "x",
      fields: [{ key: "password", label: "Password", type: "text", required: false }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields["fields.0.key"]).toBe("Unknown field password");
    const publicForm = await visitor("GET", `/api/public/forms/${formId}`);
    expect(publicForm.status).toBe(200);
    expect(publicForm.body.result).toMatchObject({
      id: formId,
      consentText: "I agree to receive the bread club's emails.",
      business: { name: "Crumb & Co. Bakery", logoUrl: "" },
    });
    // Whose form it is stays with the gateway.
    expect(publicForm.body.result).not.toHaveProperty("userId");
    expect(publicForm.body.result).not.toHaveProperty("projectId");
    expect((await visitor("GET", "/api/public/forms/no-such-form")).status).toBe(404);
  });

  it("answers field errors as values.<key> and stores nothing", async () => {
    const email = uniqueEmail("lead-bad");
    const invalid = await visitor(
      "POST",
      `/api/public/forms/${formId}/submissions`,
      { values: { email: "not-an-email", firstName: "Ada" }, website: "" },
      own(),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields["values.email"]).toBe("Invalid email");
    const missing = await visitor(
      "POST",
      `/api/public/forms/${formId}/submissions`,
      { values: { email, firstName: "" }, website: "" },
      own(),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields["values.firstName"]).toBe("First name is required");
    expect(await contactByEmail(owner, email)).toBeUndefined();
    expect((await owner.get("/api/leads/submissions")).body.result.meta.count).toBe(0);
  });

  it("creates a pending contact, emails the confirm link as the business, and confirming subscribes it once", async () => {
    // The business's name and logo brand the email and the confirm page, never Crafter's.
    const logo = await owner.request("PATCH", `/api/profiles/${profileId}`, { values: { logoImage: LOGO } });
    expect(logo.status).toBe(200);
    const email = uniqueEmail("lead");
    const sent = await visitor(
      "POST",
      `/api/public/forms/${formId}/submissions`,
      { values: { email: email.toUpperCase(), firstName: "Grace", company: "Navy" }, website: "" },
      own(),
    );
    expect(sent.status).toBe(200);
    expect(sent.body.result).toEqual({ thankYouMessage: "Thanks! Check your inbox." });
    const contact = await contactByEmail(owner, email);
    expect(contact).toMatchObject({ firstName: "Grace", company: "Navy", source: "lead form", consent: "pending" });

    const message = await waitForEmail(email, "Please confirm your subscription to Crumb & Co. Bakery");
    expect(message.Text).toContain('to hear from Crumb & Co. Bakery via "Bread club"');
    expect(message.Text).toContain("— Crumb & Co. Bakery");
    expect(message.HTML).toContain(`<img src="${LOGO}" alt="Crumb &amp; Co. Bakery"`);
    expect(`${message.Text}${message.HTML}`).not.toMatch(/Crafter team/);
    // From the business: its name as the display name (the platform's address until it confirms its own).
    const { From } = message as unknown as { From: { Name: string; Address: string } };
    expect(From.Name).toBe("Crumb & Co. Bakery");
    const link = linkFrom(message, "/confirm");
    // The email also carries the contact's signed preference centre (to change their mind later).
    expect(linkFrom(message, "/preferences/").pathname).toMatch(/^\/preferences\/[^/]+$/);
    const token = link.searchParams.get("token")!;
    // Only our own pages confirm (no cross-origin exemption for this route).
    expect(
      (await visitor("POST", "/api/public/consent/confirm", { token }, { origin: "https://evil.example" })).status,
    ).toBe(403);
    const confirmed = await visitor("POST", "/api/public/consent/confirm", { token }, own());
    expect(confirmed.status).toBe(200);
    const business = { name: "Crumb & Co. Bakery", logoUrl: LOGO };
    expect(confirmed.body.result).toEqual({ consent: "subscribed", business });
    expect(await contactByEmail(owner, email)).toMatchObject({ consent: "subscribed" });
    const detail = await owner.get(`/api/contacts/${contact.id}`);
    expect(detail.body.result.consentHistory.map((c: { status: string }) => c.status)).toEqual([
      "pending",
      "subscribed",
    ]);
    // A second click changes nothing.
    expect((await visitor("POST", "/api/public/consent/confirm", { token }, own())).body.result).toEqual({
      consent: "subscribed",
      business,
    });
    const submissions = await owner.get("/api/leads/submissions");
    expect(submissions.body.result.result[0]).toMatchObject({ email, status: "confirmed", contactId: contact.id });

    const forged = await visitor("POST", "/api/public/consent/confirm", { token: `${token.slice(0, -2)}xx` }, own());
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("CONTACT_LINK_INVALID");
  });

  it("never changes an existing contact: fills only its empty fields, records the submission, asks consent only when missing", async () => {
    const mailbox = async (to: string) => {
      const api = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
      const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
      return ((await response.json()) as { messages: { Subject: string }[] }).messages.map((m) => m.Subject);
    };
    const submit = (email: string, firstName: string, company: string) =>
      visitor(
        "POST",
        `/api/public/forms/${formId}/submissions`,
        { values: { email, firstName, company }, website: "" },
        own(),
      );

    // Subscribed, with a name and no company: the name stays, the company is filled, no opt-in email.
    const known = uniqueEmail("lead-known");
    const created = await owner.post("/api/contacts", { email: known, firstName: "Ada", tags: ["vip"] });
    const id = created.body.result.id;
    expect((await owner.request("PATCH", `/api/contacts/${id}`, { consent: "subscribed" })).status).toBe(200);
    expect((await submit(known, "Mallory", "Evil Corp")).status).toBe(200);
    const after = (await owner.get(`/api/contacts/${id}`)).body.result;
    expect(after).toMatchObject({ firstName: "Ada", company: "Evil Corp", consent: "subscribed", tags: ["vip"] });
    expect((await submit(known, "Eve", "Another Ltd")).status).toBe(200);
    expect((await owner.get(`/api/contacts/${id}`)).body.result).toMatchObject({
      firstName: "Ada",
      company: "Evil Corp",
    });
    const interactions = (await owner.get(`/api/contacts/${id}/interactions`)).body.result.result;
    expect(interactions.filter((i: { type: string }) => i.type === "form")).toHaveLength(2);
    expect(interactions[0].note).toBe('Submitted the form "Bread club"');
    // The confirmation is the one email a submission may send; give it time to arrive, then check none did.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await mailbox(known)).toEqual([]);

    // Pending (added by hand, never confirmed): the double opt-in is sent, the fields stay.
    const pending = uniqueEmail("lead-pending");
    const pendingId = (await owner.post("/api/contacts", { email: pending, firstName: "Grace", company: "Navy" })).body
      .result.id;
    expect((await submit(pending, "Someone", "Else")).status).toBe(200);
    await waitForEmail(pending, "Please confirm your subscription");
    expect((await owner.get(`/api/contacts/${pendingId}`)).body.result).toMatchObject({
      firstName: "Grace",
      company: "Navy",
      consent: "pending",
    });
  });

  it("lets a business's site post the form cross-origin (CORS), nothing else", async () => {
    const preflight = await fetch(`${gatewayUrl()}/api/public/forms/${formId}/submissions`, {
      method: "OPTIONS",
      headers: {
        origin: "https://bakery.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const posted = await visitor(
      "POST",
      `/api/public/forms/${formId}/submissions`,
      { values: { email: "not-an-email" } },
      { origin: "https://bakery.example" },
    );
    expect(posted.status).toBe(400); // reached the route: validation, not the CSRF guard
    expect(posted.headers.get("access-control-allow-origin")).toBe("*");
    // A session route from another origin is still refused, and gets no CORS header.
    const session = await owner.request("PUT", "/api/leads/form", {}, { origin: "https://bakery.example" });
    expect(session.status).toBe(403);
    expect(session.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("spam", () => {
  it("answers a filled honeypot like a success and stores and sends nothing", async () => {
    const email = uniqueEmail("bot");
    const bot = await visitor(
      "POST",
      `/api/public/forms/${formId}/submissions`,
      { values: { email, firstName: "Bot" }, website: "https://spam.example" },
      own(),
    );
    expect(bot.status).toBe(200);
    expect(bot.body.result).toEqual({ thankYouMessage: "Thanks! Check your inbox." });
    expect(await contactByEmail(owner, email)).toBeUndefined();
  });

  it("limits submissions per IP and form (429 with Retry-After)", async () => {
    const { session } = await userWithProject("leads-limit");
    const id = (await session.get("/api/leads/form")).body.result.id;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof visitor>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await visitor("POST", `/api/public/forms/${id}/submissions`, { values: {}, website: "bot" }, own());
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect(last!.body.error.code).toBe("RATE_LIMITED");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another form is not limited by this one.
    expect(
      (await visitor("POST", `/api/public/forms/${formId}/submissions`, { values: {}, website: "bot" }, own())).status,
    ).toBe(200);
  });
});

describe("signed links: one-click unsubscribe and the preference centre", () => {
  it("unsubscribes with RFC 8058's form-encoded POST from no origin, and the contact subscribes again", async () => {
    const email = uniqueEmail("reader");
    const created = await owner.post("/api/contacts", { email, firstName: "Reader" });
    const contactId = created.body.result.id;
    const links = await contactsAsNotifications().getContactLinks({ userId: userIdOf(owner), contactId });
    expect(links.preferencesUrl).toMatch(/\/preferences\/[^/]+$/);
    expect(links.unsubscribeUrl).toBe(links.preferencesUrl);
    const token = decodeURIComponent(new URL(links.preferencesUrl).pathname.split("/").pop()!);
    expect(new URL(links.oneClickUrl).pathname).toBe(`/api/public/unsubscribe/${encodeURIComponent(token)}`);

    const prefs = await visitor("GET", `/api/public/preferences/${encodeURIComponent(token)}`);
    expect(prefs.body.result).toEqual({ email, consent: "pending" });

    const oneClick = await fetch(`${gatewayUrl()}${new URL(links.oneClickUrl).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await contactByEmail(owner, email)).toMatchObject({ consent: "unsubscribed" });
    const history = (await owner.get(`/api/contacts/${contactId}`)).body.result.consentHistory;
    expect(history.at(-1)).toMatchObject({ status: "unsubscribed", source: "unsubscribe link" });

    const wrongBody = await fetch(`${gatewayUrl()}${new URL(links.oneClickUrl).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=Maybe",
    });
    expect(wrongBody.status).toBe(400);

    const again = await visitor(
      "PUT",
      `/api/public/preferences/${encodeURIComponent(token)}`,
      { consent: "subscribed" },
      own(),
    );
    expect(again.body.result).toEqual({ email, consent: "subscribed" });
    const bad = await visitor("GET", "/api/public/preferences/abc.def");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("CONTACT_LINK_INVALID");

    // Opaque: decoding any part of the token shows none of the ids it stands for.
    const parts = token.split(".");
    const decoded = parts.map((part) => Buffer.from(part, "base64url").toString("latin1")).join(" ");
    for (const id of [contactId, userIdOf(owner), (await contactByEmail(owner, email)).projectId]) {
      expect(token).not.toContain(id);
      expect(decoded).not.toContain(id);
    }
    // Altered anywhere in its sealed payload: refused in the envelope, and nothing changes.
    const payload = parts.at(-1)!;
    const altered = [
      ...parts.slice(0, -1),
      `${payload.slice(0, 5)}${payload[5] === "A" ? "B" : "A"}${payload.slice(6)}`,
    ];
    for (const path of ["/api/public/preferences/", "/api/public/unsubscribe/"]) {
      const refused = await fetch(`${gatewayUrl()}${path}${encodeURIComponent(altered.join("."))}`, {
        method: path.includes("unsubscribe") ? "POST" : "GET",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: path.includes("unsubscribe") ? "List-Unsubscribe=One-Click" : undefined,
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("CONTACT_LINK_INVALID");
    }
    expect(await contactByEmail(owner, email)).toMatchObject({ consent: "subscribed" });
  });

  it("gives the links, MatchSegments and SetConsent to notifications only, naming the user", async () => {
    const email = uniqueEmail("seg");
    const contactId = (await owner.post("/api/contacts", { email, tags: ["vip"] })).body.result.id;
    const vip = await owner.post("/api/segments", {
      name: "VIPs",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "vip" }] },
    });
    const other = await owner.post("/api/segments", {
      name: "Bakers",
      query: { combinator: "and", rules: [{ field: "company", operator: "==", value: "Bakery" }] },
    });
    const projectId = (await owner.get("/api/projects/getActiveProject")).body.result?.projectId ?? "";
    const rpc = contactsAsNotifications();
    const userId = userIdOf(owner);
    const matched = await rpc.matchSegments({
      userId,
      projectId: projectId || (await contactByEmail(owner, email)).projectId,
      contactId,
      segmentIds: [vip.body.result.id, other.body.result.id, "unknown"],
    });
    expect(matched.segmentIds).toEqual([vip.body.result.id]);
    await rpc.setConsent({
      userId,
      projectId: (await contactByEmail(owner, email)).projectId,
      contactId,
      status: 5, // COMPLAINED
      source: "complaint",
    });
    expect(await contactByEmail(owner, email)).toMatchObject({ consent: "complained" });
    // A user cannot ask for another user's links (the RPC is notifications').
    const asUser = createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, { timeoutMs: 20_000 });
    await expect(
      asUser.getContactLinks(
        { userId, contactId },
        { headers: { authorization: `Bearer ${owner.cookies.get("crafter_at")}` } },
      ),
    ).rejects.toThrow(/not allowed|permission/i);
  });
});

describe("lead assistant", () => {
  it("answers from the business profile and captures a visitor who gives a name and an email", async () => {
    const saved = await owner.put("/api/leads/assistant", {
      greeting: "Hi! Ask us about our bread.",
      questions: ["What brings you here today?"],
      tone: "friendly",
      enabled: true,
    });
    expect(saved.status).toBe(200);
    const assistantId = saved.body.result.id;
    const widget = await visitor("GET", `/api/public/assistants/${assistantId}`);
    expect(widget.body.result).toMatchObject({
      id: assistantId,
      greeting: "Hi! Ask us about our bread.",
      enabled: true,
    });

    const site = { origin: "https://bakery.example" };
    const first = await visitor(
      "POST",
      `/api/public/assistants/${assistantId}/messages`,
      { message: "Do you bake sourdough bread?" },
      site,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    expect(first.body.result.reply).toMatch(/sourdough/i);
    expect(first.body.result.leadCaptured).toBe(false);
    const sessionId = first.body.result.sessionId;

    const email = uniqueEmail("visitor");
    const second = await visitor(
      "POST",
      `/api/public/assistants/${assistantId}/messages`,
      { sessionId, message: `I'm Jane Doe, ${email}` },
      site,
    );
    expect(second.body.result).toMatchObject({ sessionId, leadCaptured: true });
    expect(await contactByEmail(owner, email)).toMatchObject({
      firstName: "Jane",
      lastName: "Doe",
      source: "lead assistant",
      consent: "pending",
    });

    const sessions = await owner.get("/api/leads/assistant/sessions");
    const listed = sessions.body.result.result.find((s: { id: string }) => s.id === sessionId);
    expect(listed).toMatchObject({ messageCount: 5, lead: { name: "Jane Doe", email } });
    const transcript = await owner.get(`/api/leads/assistant/sessions/${sessionId}`);
    expect(transcript.body.result.messages.map((m: { role: string }) => m.role)).toEqual([
      "assistant",
      "visitor",
      "assistant",
      "visitor",
      "assistant",
    ]);
    // Another user sees nothing of it.
    const { session: stranger } = await userWithProject("leads-stranger");
    expect((await stranger.get(`/api/leads/assistant/sessions/${sessionId}`)).status).toBe(404);
  });

  it("is not reachable while switched off", async () => {
    const { session } = await userWithProject("leads-off");
    const id = (await session.get("/api/leads/assistant")).body.result.id;
    const sent = await visitor("POST", `/api/public/assistants/${id}/messages`, { message: "hello" }, own());
    expect(sent.status).toBe(404);
  });
});

describe("the profile limit comes from billing's GetPlan", () => {
  let billing: mongoose.Connection;
  beforeAll(async () => {
    billing = await mongoose
      .createConnection(stackEnv().MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: `${stackEnv().CRAFTER_NAMESPACE}_billing`,
      })
      .asPromise();
  });
  afterAll(async () => billing?.close());

  it("lets a Core subscriber past the free tier's 250 contacts", async () => {
    const { session } = await userWithProject("leads-core");
    // What billing's Stripe webhook stores for an active Core subscription.
    const stores = await billingStores(billing);
    await stores.subscriptions.setPlan(userIdOf(session), "core", { planKey: "CoreMonthly_v1", status: "active" });
    const rows = ["email", ...Array.from({ length: 252 }, (_, i) => `core${i}@example.com`)].join("\n");
    const upload = await session.request("POST", "/api/contacts/imports?name=core.csv", rows, {
      "content-type": "text/csv",
    });
    expect(upload.status).toBe(201);
    await session.put(`/api/contacts/imports/${upload.body.result.id}`, { duplicates: "update" });
    let state = upload.body.result;
    for (let i = 0; i < 200 && state.status !== "result" && state.status !== "error"; i++) {
      await new Promise((r) => setTimeout(r, 300));
      state = (await session.get(`/api/contacts/imports/${upload.body.result.id}`)).body.result;
    }
    expect(state.result).toMatchObject({ created: 252, overLimit: 0 });
    const csv = await rawGet(session, "/api/contacts/export.csv");
    expect(csv.text.trim().split("\n")).toHaveLength(253);
  });
});
