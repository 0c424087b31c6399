// Contacts through the gateway and the real contacts service (test stack of scripts/stack.mjs).
import { type GatewaySession, stackEnv } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { Redis } from "ioredis";
import { del, patch, rawGet, userWithProject } from "./helpers";

jest.setTimeout(120_000);

let owner: GatewaySession;
let other: GatewaySession;
let projectId: string;
let otherProjectId: string;

beforeAll(async () => {
  const [a, b] = await Promise.all([userWithProject("contacts-owner"), userWithProject("contacts-other")]);
  owner = a.session;
  projectId = a.projectId;
  other = b.session;
  otherProjectId = b.projectId;
});

describe("contacts CRUD", () => {
  let id: string;

  it("answers the spec's email messages, normalises the email and starts consent pending", async () => {
    const missing = await owner.post("/api/contacts", { firstName: "Ada" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.email).toBe("Email is required");
    const invalid = await owner.post("/api/contacts", { email: "ada@" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields.email).toBe("Invalid email");

    const created = await owner.post("/api/contacts", {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "  Ada.Lovelace@Example.COM ",
      company: "Analytical Engines",
      tags: ["vip", "VIP", "baker"],
      customerKind: "business",
    });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({
      email: "ada.lovelace@example.com",
      name: "Ada Lovelace",
      tags: ["vip", "baker"],
      consent: "pending",
      source: "manual",
      projectId,
    });
    id = created.body.result.id;
  });

  it("refuses the same email in the project, whatever its case (409 CONTACT_EXISTS)", async () => {
    const again = await owner.post("/api/contacts", { email: "ADA.lovelace@example.com" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONTACT_EXISTS");
  });

  it("changes fields and consent, keeping the consent history", async () => {
    const changed = await patch(owner, `/api/contacts/${id}`, { phone: "+44 20 7946 0000", consent: "subscribed" });
    expect(changed.status).toBe(200);
    expect(changed.body.result).toMatchObject({ phone: "+44 20 7946 0000", firstName: "Ada", consent: "subscribed" });
    await patch(owner, `/api/contacts/${id}`, { consent: "unsubscribed" });
    const got = await owner.get(`/api/contacts/${id}`);
    expect(got.body.result.consent).toBe("unsubscribed");
    expect(got.body.result.consentHistory.map((c: { status: string }) => c.status)).toEqual([
      "pending",
      "subscribed",
      "unsubscribed",
    ]);
    const bad = await patch(owner, `/api/contacts/${id}`, { email: "nope" });
    expect(bad.body.error.fields.email).toBe("Invalid email");
  });

  it("keeps the contact's own time zone, in its canonical name, and clears it", async () => {
    const set = await patch(owner, `/api/contacts/${id}`, { timeZone: "US/Pacific" });
    expect(set.status).toBe(200);
    expect(set.body.result).toMatchObject({ timeZone: "America/Los_Angeles", firstName: "Ada" });
    expect((await owner.get(`/api/contacts/${id}`)).body.result.timeZone).toBe("America/Los_Angeles");
    const bad = await patch(owner, `/api/contacts/${id}`, { timeZone: "GMT+1:00 Europe" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.timeZone).toBe("Time zone must be an IANA name such as Europe/London");
    expect((await patch(owner, `/api/contacts/${id}`, { timeZone: "" })).body.result.timeZone).toBe("");
  });

  it("appends interactions of a known type and lists them newest first", async () => {
    const unknown = await owner.post(`/api/contacts/${id}/interactions`, { type: "telepathy" });
    expect(unknown.status).toBe(400);
    await owner.post(`/api/contacts/${id}/interactions`, {
      type: "call",
      note: "first",
      occurredAt: "2026-01-01T10:00:00Z",
    });
    const second = await owner.post(`/api/contacts/${id}/interactions`, { type: "meeting", note: "second" });
    expect(second.status).toBe(201);
    const list = await owner.get(`/api/contacts/${id}/interactions?pageSize=1`);
    expect(list.body.result.meta).toEqual({ count: 2, currentPage: 1, totalPages: 2 });
    expect(list.body.result.result[0].note).toBe("second");
    expect((await owner.get(`/api/contacts/${id}`)).body.result.interactionCount).toBe(2);
    const counted = await owner.get(`/api/contacts/${id}/interactions/count`);
    expect(counted.body.result).toEqual({
      count: 2,
      byType: [
        { type: "call", count: 1 },
        { type: "meeting", count: 1 },
      ],
    });
    expect((await owner.get("/api/contacts/nobody/interactions/count")).status).toBe(404);
  });

  it("exports one contact's data as JSON", async () => {
    const exported = await owner.get(`/api/contacts/${id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.result.contact.email).toBe("ada.lovelace@example.com");
    expect(exported.body.result.consentHistory).toHaveLength(3);
    expect(exported.body.result.interactions).toHaveLength(2);
  });
});

describe("the customer profile table", () => {
  beforeAll(async () => {
    const people = [
      { firstName: "Grace", lastName: "Hopper", email: "grace@navy.example", tags: ["vip"], company: "Navy" },
      { firstName: "Alan", lastName: "Turing", email: "alan@bletchley.example", tags: ["lead"] },
      { firstName: "Joan", lastName: "Clarke", email: "joan@bletchley.example", tags: ["lead", "vip"] },
      { firstName: "Émile", lastName: "Zola", email: "emile@paris.example" },
    ];
    for (const person of people) expect((await owner.post("/api/contacts", person)).status).toBe(201);
  });

  it("pages, sorts and counts on the server", async () => {
    const page = await owner.get("/api/contacts?pageSize=2&sort=name&order=asc");
    expect(page.status).toBe(200);
    expect(page.body.result.meta).toEqual({
      count: 5,
      currentPage: 1,
      totalPages: 3,
      consent: { total: 5, subscribed: 0, pending: 4, unsubscribed: 1, bounced: 0, complained: 0 },
    });
    expect(page.body.result.result.map((c: { firstName: string }) => c.firstName)).toEqual(["Ada", "Alan"]);
    const last = await owner.get("/api/contacts?pageSize=2&page=3&sort=name&order=asc");
    expect(last.body.result.result.map((c: { firstName: string }) => c.firstName)).toEqual(["Joan"]);
  });

  it("shows the newest change first by default, and rebuilds the project's snapshot when Redis has lost it", async () => {
    const emails = async (query = "") =>
      (await owner.get(`/api/contacts?pageSize=3${query}`)).body.result.result.map((c: { email: string }) => c.email);
    // Created in this order after Ada, so the newest first.
    expect(await emails()).toEqual(["emile@paris.example", "joan@bletchley.example", "alan@bletchley.example"]);
    const alan = (await owner.get("/api/contacts?q=alan")).body.result.result[0].id;
    expect((await patch(owner, `/api/contacts/${alan}`, { company: "Bletchley Park" })).status).toBe(200);
    expect(await emails()).toEqual(["alan@bletchley.example", "emile@paris.example", "joan@bletchley.example"]);
    const page2 = await owner.get("/api/contacts?pageSize=3&page=2");
    expect(page2.body.result.meta).toMatchObject({ count: 5, currentPage: 2, totalPages: 2 });
    expect(page2.body.result.result.map((c: { email: string }) => c.email)).toEqual([
      "grace@navy.example",
      "ada.lovelace@example.com",
    ]);
    expect((await emails("&sort=updated_on&order=asc"))[0]).toBe("ada.lovelace@example.com");

    // Redis emptied (a flush, a new instance): the next page reads the project from the database again.
    const redis = new Redis(stackEnv().REDIS_URL ?? "redis://127.0.0.1:6379");
    const namespace = stackEnv().CRAFTER_NAMESPACE ?? "crafter_test";
    // The snapshot's hash, its change stream and its generation.
    const keys = await redis.keys(`${namespace}:contacts:facts:*:${projectId}*`);
    expect(keys.sort()).toEqual(
      ["", ":changes", ":gen"].map((suffix) => expect.stringMatching(new RegExp(`${projectId}${suffix}$`))),
    );
    await redis.del(...keys);
    redis.disconnect();
    expect(await emails()).toEqual(["alan@bletchley.example", "emile@paris.example", "joan@bletchley.example"]);
    expect((await owner.get("/api/contacts")).body.result.meta.count).toBe(5);
  });

  it("searches by word prefixes (accents folded) and filters by tags", async () => {
    const names = async (query: string) =>
      (await owner.get(`/api/contacts?${query}&sort=name`)).body.result.result.map(
        (c: { lastName: string }) => c.lastName,
      );
    expect(await names("q=bletch")).toEqual(["Turing", "Clarke"]);
    expect(await names("q=emile")).toEqual(["Zola"]);
    expect(await names("q=grace%40navy.example")).toEqual(["Hopper"]);
    expect(await names("tags=vip")).toEqual(["Lovelace", "Hopper", "Clarke"]);
    expect(await names("tags=vip,lead")).toEqual(["Clarke"]);
    expect(await names("q=jo&tags=lead")).toEqual(["Clarke"]);
  });

  it("tags, untags and deletes in bulk, by ids or by filter", async () => {
    const tagged = await owner.post("/api/contacts/bulk", {
      filter: { tags: "lead" },
      action: "tag",
      tags: ["spring"],
    });
    expect(tagged.body.result.affected).toBe(2);
    expect((await owner.get("/api/contacts?tags=spring")).body.result.meta.count).toBe(2);
    const untagged = await owner.post("/api/contacts/bulk", {
      filter: { q: "alan" },
      action: "untag",
      tags: ["SPRING"],
    });
    expect(untagged.body.result.affected).toBe(1);
    expect((await owner.get("/api/contacts?tags=spring")).body.result.meta.count).toBe(1);
    const noIds = await owner.post("/api/contacts/bulk", { action: "delete" });
    expect(noIds.status).toBe(400);
  });

  it("exports the filtered table as CSV", async () => {
    const csv = await rawGet(owner, "/api/contacts/export.csv?tags=lead&sort=email");
    expect(csv.status).toBe(200);
    expect(csv.type).toContain("text/csv");
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toMatch(/^email,firstName,lastName/);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["alan@bletchley.example", "joan@bletchley.example"]);
  });

  it("refuses bad list parameters with 400, never 500", async () => {
    for (const query of ["page=0", "pageSize=101", "sort=password", "order=sideways", "consent=maybe"]) {
      expect((await owner.get(`/api/contacts?${query}`)).status).toBe(400);
    }
  });
});

describe("settings lists", () => {
  it("saves custom fields and checks contacts' values against them", async () => {
    const saved = await owner.put("/api/contacts/settings/custom-fields", [
      { key: "plan", label: "Plan", type: "select", options: ["Gold", "Silver"] },
      { key: "visits", label: "Visits", type: "number" },
    ]);
    expect(saved.status).toBe(200);
    expect((await owner.get("/api/contacts/settings/custom-fields")).body.result).toHaveLength(2);
    const bad = await owner.post("/api/contacts", { email: "bad-plan@example.com", custom: { plan: "Bronze" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields["custom.plan"]).toBe("Plan must be one of its options");
    const good = await owner.post("/api/contacts", {
      email: "gold@example.com",
      custom: { plan: "gold", visits: "12" },
    });
    expect(good.body.result.custom).toEqual({ plan: "Gold", visits: 12 });
    const noOptions = await owner.put("/api/contacts/settings/custom-fields", [
      { key: "x", label: "X", type: "select" },
    ]);
    expect(noOptions.status).toBe(400);
    expect(
      (await owner.get("/api/contacts/settings/interaction-types")).body.result.map((t: { key: string }) => t.key),
    ).toContain("call");
    const types = await owner.put("/api/contacts/settings/contact-types", [{ key: "wholesale", label: "Wholesale" }]);
    expect(types.body.result).toEqual([{ key: "wholesale", label: "Wholesale" }]);
  });
});

describe("segments", () => {
  it("previews a count, saves, lists, changes and deletes a segment", async () => {
    const query = {
      combinator: "and",
      rules: [
        { field: "tags", operator: "contains", value: "vip" },
        {
          combinator: "or",
          rules: [
            { field: "lastName", operator: "==", value: "Clarke" },
            { field: "company", operator: "contains", value: "nav" },
          ],
        },
      ],
    };
    const preview = await owner.post("/api/segments/preview", { query });
    expect(preview.status).toBe(200);
    expect(preview.body.result.count).toBe(2);
    expect(preview.body.result.preview.map((c: { lastName: string }) => c.lastName).sort()).toEqual([
      "Clarke",
      "Hopper",
    ]);
    const bad = await owner.post("/api/segments/preview", {
      query: { combinator: "and", rules: [{ field: "nope", operator: "==", value: 1 }] },
    });
    expect(bad.status).toBe(400);

    const saved = await owner.post("/api/segments", { name: "VIPs", query });
    expect(saved.status).toBe(201);
    const segmentId = saved.body.result.id;
    expect((await owner.get("/api/segments")).body.result.map((s: { name: string }) => s.name)).toEqual(["VIPs"]);
    expect((await owner.get(`/api/contacts?segmentId=${segmentId}`)).body.result.meta.count).toBe(2);
    const renamed = await owner.put(`/api/segments/${segmentId}`, { name: "Best", query });
    expect(renamed.body.result.name).toBe("Best");
    const zola = (await owner.get("/api/contacts?q=zola")).body.result.result[0].id;
    const added = await owner.post("/api/contacts/bulk", { ids: [zola], action: "addToSegment", segmentId });
    expect(added.body.result.affected).toBe(1);
    expect((await owner.get(`/api/contacts?segmentId=${segmentId}`)).body.result.meta.count).toBe(3);
    expect((await del(owner, `/api/segments/${segmentId}`)).status).toBe(200);
    expect((await owner.get(`/api/segments/${segmentId}`)).status).toBe(404);
  });
});

describe("isolation", () => {
  it("keeps every contact route within its user and project", async () => {
    const mine = (await owner.get("/api/contacts?q=grace")).body.result.result[0].id;
    expect((await other.get(`/api/contacts/${mine}`)).status).toBe(404);
    expect((await patch(other, `/api/contacts/${mine}`, { firstName: "Mallory" })).status).toBe(404);
    expect((await del(other, `/api/contacts/${mine}`)).status).toBe(404);
    expect((await other.get(`/api/contacts/${mine}/export`)).status).toBe(404);
    expect((await other.post(`/api/contacts/${mine}/interactions`, { type: "call" })).status).toBe(404);
    expect((await other.post("/api/contacts/bulk", { ids: [mine], action: "delete" })).body.result.affected).toBe(0);
    expect((await other.get("/api/contacts")).body.result.meta.count).toBe(0);
    // Naming the other user's project is refused.
    expect((await other.get(`/api/contacts?projectId=${projectId}`)).status).toBe(404);
    expect((await owner.get(`/api/contacts?projectId=${otherProjectId}`)).status).toBe(404);
    // The same email is free in another user's project.
    expect((await other.post("/api/contacts", { email: "grace@navy.example" })).status).toBe(201);
    expect((await owner.get(`/api/contacts/${mine}`)).body.result.firstName).toBe("Grace");
  });

  it("deletes a contact everywhere", async () => {
    const id = (await owner.get("/api/contacts?q=zola")).body.result.result[0].id;
    expect((await del(owner, `/api/contacts/${id}`)).status).toBe(200);
    expect((await owner.get(`/api/contacts/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/contacts/${id}/interactions`)).status).toBe(404);
    expect((await del(owner, `/api/contacts/${id}`)).status).toBe(404);
    // Gone from the table and its count too.
    const table = await owner.get("/api/contacts?pageSize=100");
    expect(table.body.result.result.map((c: { id: string }) => c.id)).not.toContain(id);
    expect(table.body.result.meta.count).toBe(table.body.result.result.length);
  });
});
