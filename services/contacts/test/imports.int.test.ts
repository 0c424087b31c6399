// CSV imports through the gateway and the contacts service (test stack): real export layouts,
// duplicates, bad rows, the plan's profile limit, a service restart and a kill -9 in the middle of an import.
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type GatewaySession, killHard, repoRoot, stackEnv } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { contactModel } from "../src/store/contact.repository";
import { rawGet, userWithProject } from "./helpers";
import { contactDocument, forgetContactSnapshot } from "./seeded-contacts";

jest.setTimeout(240_000);

async function upload(s: GatewaySession, csv: string, name = "audience.csv") {
  return s.request("POST", `/api/contacts/imports?name=${encodeURIComponent(name)}`, csv, {
    "content-type": "text/csv",
  });
}

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

async function untilDone(s: GatewaySession, id: string, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await s.get(`/api/contacts/imports/${id}`);
    if (got.body.result?.status === "result" || got.body.result?.status === "error") return got.body.result;
    if (Date.now() > until) throw new Error(`import ${id} still ${JSON.stringify(got.body.result?.result)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

// Mailchimp's audience export (Audience → Export: subscribed_members_export_*.csv), its documented
// columns, with a UTF-8 BOM, CRLF, a quoted address holding commas and Mailchimp's quoted TAGS list.
const MAILCHIMP =
  "\uFEFF" +
  [
    "Email Address,First Name,Last Name,Address,Phone Number,Birthday,MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,LATITUDE,LONGITUDE,GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS",
    'ada@example.com,Ada,Lovelace,"12 St James\'s Square, London, SW1Y 4JH",+44 20 7946 0000,12/10,4,2025-01-05 10:00:00,1.2.3.4,2025-01-05 10:05:00,1.2.3.4,,,,,,GB,,2025-02-01 09:00:00,1,abc,,"""vip"",""spring"""',
    "grace@example.com,Grace,Hopper,,,,2,2025-02-01 08:00:00,,2025-02-01 08:01:00,,,,,,,US,,2025-02-01 09:00:00,2,def,,",
    "not-an-email,Bad,Row,,,,1,,,,,,,,,,,,,3,ghi,,",
    "alan@example.com,Alan,Turing,,,,3,,,,,,,,,,GB,,2025-02-01 09:00:00,4,jkl,,",
    "existing@example.com,Known,Person,,,,3,2025-03-01 08:00:00,,,,,,,,,,,,5,mno,,",
    "",
  ].join("\r\n");

// HubSpot's contacts export (Contacts → Export, all properties trimmed to the common ones), written
// by a European Excel: `;` separated.
const HUBSPOT = [
  "Record ID;First Name;Last Name;Email;Phone Number;Company Name;Lifecycle Stage;Create Date;Unsubscribed from all email;Legal basis for processing contact's data",
  "101;Joan;Clarke;joan@example.com;;Bletchley Park;lead;2024-05-01 10:00;false;Freely given consent from contact",
  "102;Émile;Zola;emile@example.com;;Les Rougon, Paris;customer;2024-06-01 10:00;true;",
  "103;Ada;Again;ADA@example.com;;;customer;2024-07-01;;",
  "104;Wrong;Stage;wrong@example.com;;;subscriber;2024-07-01;;",
].join("\n");

describe("CSV import", () => {
  let owner: GatewaySession;

  beforeAll(async () => {
    ({ session: owner } = await userWithProject("imports"));
    expect((await owner.post("/api/contacts", { email: "existing@example.com", firstName: "Old" })).status).toBe(201);
  });

  it("reads a Mailchimp audience export: preview, guessed mapping, opt-in evidence, bad rows with lines", async () => {
    const uploaded = await upload(owner, MAILCHIMP);
    expect(uploaded.status).toBe(201);
    const state = uploaded.body.result;
    expect(state).toMatchObject({ status: "fields", processing: false, file: { name: "audience.csv", rows: 5 } });
    expect(state.headers[0]).toBe("Email Address");
    expect(state.preview).toHaveLength(5);
    expect(state.preview[0][3]).toBe("12 St James's Square, London, SW1Y 4JH");
    expect(state.fields).toMatchObject({
      "Email Address": "email",
      "First Name": "firstName",
      "Last Name": "lastName",
      "Phone Number": "phone",
      OPTIN_TIME: "consent.optedInAt",
      CONFIRM_TIME: null,
      TAGS: "tags",
    });

    const started = await owner.put(`/api/contacts/imports/${state.id}`, { duplicates: "update" });
    expect(started.status).toBe(200);
    expect((await owner.put(`/api/contacts/imports/${state.id}`, { duplicates: "update" })).status).toBe(409);
    const done = await untilDone(owner, state.id);
    expect(done.result).toEqual({
      processed: 5,
      total: 5,
      created: 3,
      updated: 1,
      skipped: 0,
      failed: 1,
      overLimit: 0,
      duplicatesInFile: 0,
    });

    const ada = (await owner.get("/api/contacts?q=ada%40example.com")).body.result.result[0];
    expect(ada).toMatchObject({ firstName: "Ada", source: "import", consent: "subscribed", tags: ["vip", "spring"] });
    const alan = (await owner.get("/api/contacts?q=alan%40example.com")).body.result.result[0];
    expect(alan.consent).toBe("pending");
    const known = (await owner.get("/api/contacts?q=existing%40example.com")).body.result.result[0];
    expect(known).toMatchObject({ firstName: "Known", consent: "subscribed", source: "manual" });

    const errors = await rawGet(owner, `/api/contacts/imports/${state.id}/errors.csv`);
    expect(errors.type).toContain("text/csv");
    expect(errors.text.trim().split("\r\n")).toEqual([
      "line,email,value,reason",
      "4,not-an-email,not-an-email,Invalid email: not-an-email",
    ]);
    // The result lists the refused rows itself, with line, value and reason.
    expect(done.errors).toEqual([
      { line: 4, email: "not-an-email", value: "not-an-email", reason: "Invalid email: not-an-email" },
    ]);
    expect((await owner.get("/api/contacts/imports")).body.result[0].id).toBe(state.id);
  });

  it("reads a `;`-separated HubSpot export, skipping duplicates, and reports an unknown contact type the user mapped", async () => {
    const uploaded = await upload(owner, HUBSPOT, "hubspot.csv");
    const state = uploaded.body.result;
    expect(state.fields).toMatchObject({
      Email: "email",
      "Company Name": "company",
      "Lifecycle Stage": "contactType",
      "Create Date": "customerSince",
      "Unsubscribed from all email": "consent.unsubscribedAll",
    });
    // Left to the guess, a column with values outside the list refuses the start, naming them.
    const refused = await owner.put(`/api/contacts/imports/${state.id}`, { duplicates: "skip" });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe(
      "Lifecycle Stage has values that are not in the list of contact types: subscriber. Add them, map the column to another field, or skip it.",
    );
    // Mapped by the user, the rows with such a value are refused one by one.
    await owner.put(`/api/contacts/imports/${state.id}`, {
      duplicates: "skip",
      mapping: { "Record ID": null, "Lifecycle Stage": "contactType" },
    });
    const done = await untilDone(owner, state.id);
    expect(done.result).toMatchObject({ processed: 4, created: 2, skipped: 1, failed: 1 });
    const joan = (await owner.get("/api/contacts?q=joan")).body.result.result[0];
    expect(joan).toMatchObject({ company: "Bletchley Park", contactType: "lead", consent: "subscribed" });
    expect((await owner.get("/api/contacts?q=emile")).body.result.result[0].consent).toBe("unsubscribed");
    expect((await owner.get("/api/contacts?q=ada%40example.com")).body.result.result[0].lastName).toBe("Lovelace");
    const errors = await rawGet(owner, `/api/contacts/imports/${state.id}/errors.csv`);
    expect(errors.text).toContain("5,wrong@example.com,subscriber,Unknown contact type: subscriber");
  });

  it("imports every row of a HubSpot export with the guessed mapping and one choice: add the lifecycle stages", async () => {
    const { session } = await userWithProject("imports-hubspot");
    const uploaded = await upload(session, fixture("hubspot-contacts.csv"), "hubspot-contacts.csv");
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.result.id;
    expect(uploaded.body.result.fields["Lifecycle Stage"]).toBe("contactType");

    // The mapping step's check: what the guessed mapping would do, before anything is written.
    const checked = (await session.post(`/api/contacts/imports/${id}/check`, {})).body.result;
    expect(checked).toMatchObject({ rows: 80, failing: 0, duplicatesInFile: 0 });
    expect(checked.consent.subscribed + checked.consent.pending + checked.consent.unsubscribed).toBe(80);
    expect(checked.unknown).toHaveLength(1);
    expect(checked.unknown[0]).toMatchObject({
      header: "Lifecycle Stage",
      target: "contactType",
      guessed: true,
      rows: 56,
    });
    const stages = checked.unknown[0].values.map((v: { value: string }) => v.value);
    expect(stages.sort()).toEqual(
      ["evangelist", "marketingqualifiedlead", "opportunity", "other", "salesqualifiedlead", "subscriber"].sort(),
    );
    expect((await session.put(`/api/contacts/imports/${id}`, {})).status).toBe(400);

    // The one choice: "add these values" to the project's contact types.
    const types = (await session.get("/api/contacts/settings/contact-types")).body.result;
    const added = await session.put("/api/contacts/settings/contact-types", [
      ...types,
      ...stages.map((stage: string) => ({ key: stage, label: stage })),
    ]);
    expect(added.status).toBe(200);
    expect((await session.post(`/api/contacts/imports/${id}/check`, {})).body.result.unknown).toEqual([]);

    expect((await session.put(`/api/contacts/imports/${id}`, {})).status).toBe(200);
    const done = await untilDone(session, id);
    expect(done.result).toMatchObject({ processed: 80, total: 80, created: 80, failed: 0, skipped: 0 });
    expect(done.errors).toEqual([]);
    expect((await session.get("/api/contacts?pageSize=1")).body.result.meta.count).toBe(80);
    const mqls = await session.get("/api/contacts?contactType=marketingqualifiedlead&pageSize=100");
    expect(mqls.body.result.meta.count).toBe(15);
  });

  it("keeps the first row of an email repeated in the file, or the last when asked, and counts it apart", async () => {
    const { session } = await userWithProject("imports-repeats");
    expect((await session.post("/api/contacts", { email: "known@example.com", firstName: "Known" })).status).toBe(201);
    const csv = [
      "email,first name,company",
      "ada@example.com,Ada,First Ltd",
      "known@example.com,Updated,",
      "ada@example.com,Second Ada,",
      "ADA@example.com,Third Ada,Third Ltd",
    ].join("\n");
    const first = await upload(session, csv, "first.csv");
    const check = (await session.post(`/api/contacts/imports/${first.body.result.id}/check`, {})).body.result;
    expect(check).toMatchObject({ rows: 4, duplicatesInFile: 2, failing: 0 });
    await session.put(`/api/contacts/imports/${first.body.result.id}`, {});
    const firstDone = await untilDone(session, first.body.result.id);
    expect(firstDone.result).toMatchObject({ processed: 4, created: 1, updated: 1, duplicatesInFile: 2, failed: 0 });
    expect(firstDone.inFile).toBe("first");
    const ada = (await session.get("/api/contacts?q=ada%40example.com")).body.result.result[0];
    expect(ada).toMatchObject({ firstName: "Ada", company: "First Ltd" });

    const last = await upload(session, csv.replace(/ada@/gi, "bob@"), "last.csv");
    await session.put(`/api/contacts/imports/${last.body.result.id}`, { inFile: "last" });
    const lastDone = await untilDone(session, last.body.result.id);
    expect(lastDone.result).toMatchObject({ processed: 4, created: 1, updated: 1, duplicatesInFile: 2 });
    const bob = (await session.get("/api/contacts?q=bob%40example.com")).body.result.result[0];
    expect(bob).toMatchObject({ firstName: "Third Ada", company: "Third Ltd" });
  });

  it("refuses a mapping without email and an import of someone else", async () => {
    const uploaded = await upload(owner, "name,mail\nx,x@example.com\n");
    const id = uploaded.body.result.id;
    const noEmail = await owner.put(`/api/contacts/imports/${id}`, { mapping: { mail: null } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.errorMessage).toBe("Map a column to Email");
    const { session: other } = await userWithProject("imports-other");
    expect((await other.get(`/api/contacts/imports/${id}`)).status).toBe(404);
    expect((await other.put(`/api/contacts/imports/${id}`, {})).status).toBe(404);
    expect((await rawGet(other, `/api/contacts/imports/${id}/errors.csv`)).status).toBe(404);
  });

  it("refuses a file over 20 MB with a clear message", async () => {
    const big = `email\n${"x".repeat(20 * 1024 * 1024)}\n`;
    const refused = await upload(owner, big);
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe("IMPORT_TOO_LARGE");
    expect(refused.body.errorMessage).toMatch(/larger than 20 MB/);
  });
});

describe("the plan's profile limit", () => {
  it("imports up to the free tier's 250 contacts and reports the rest, then refuses a new contact", async () => {
    const { session } = await userWithProject("imports-limit");
    const rows = Array.from({ length: 260 }, (_, i) => `person${i}@example.com,Person ${i}`);
    const uploaded = await upload(session, ["email,first name", ...rows].join("\n"));
    await session.put(`/api/contacts/imports/${uploaded.body.result.id}`, {});
    const done = await untilDone(session, uploaded.body.result.id);
    expect(done.result).toMatchObject({ processed: 260, created: 250, overLimit: 10, failed: 0 });
    expect(done.limit).toEqual({ code: "FREE_USER_LIMIT", limit: 250 });
    const errors = await rawGet(session, `/api/contacts/imports/${uploaded.body.result.id}/errors.csv`);
    const lines = errors.text.trim().split("\r\n").slice(1);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe("252,person250@example.com,,Over your plan's limit of 250 contacts (FREE_USER_LIMIT)");
    const refused = await session.post("/api/contacts", { email: "one-more@example.com" });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("FREE_USER_LIMIT");
  });
});

describe("a restart in the middle of an import", () => {
  it("resumes from the last checkpoint and counts every row once", async () => {
    const { session } = await userWithProject("imports-restart");
    // 5,000 rows: 250 become contacts (the free limit), the rest are reported, batch after batch.
    const rows = Array.from({ length: 5000 }, (_, i) => `r${i}@example.com,Name${i}`);
    const uploaded = await upload(session, ["email,first name", ...rows].join("\n"));
    const id = uploaded.body.result.id;
    await session.put(`/api/contacts/imports/${id}`, { duplicates: "update" });
    const until = Date.now() + 60_000;
    let seen = 0;
    while (seen === 0 && Date.now() < until) {
      seen = (await session.get(`/api/contacts/imports/${id}`)).body.result.result.processed;
      if (seen === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(5000);
    const stack = (command: string) =>
      execFileSync("node", ["scripts/stack.mjs", command, "--profile", "test", "contacts"], {
        cwd: repoRoot,
        env: process.env,
      });
    stack("down");
    stack("up");
    const done = await untilDone(session, id);
    expect(done.result).toMatchObject({ processed: 5000, total: 5000, created: 250, overLimit: 4750, failed: 0 });
    expect((await session.get("/api/contacts?pageSize=1")).body.result.meta.count).toBe(250);
  });
});

describe("billing away when an import starts", () => {
  it("retries the run through the outage and imports every row once billing is back", async () => {
    const { session } = await userWithProject("imports-outage");
    const rows = Array.from({ length: 120 }, (_, i) => `o${i}@outage.test,Name${i}`);
    const id = (await upload(session, ["email,first name", ...rows].join("\n"))).body.result.id;
    // The run's first step asks billing for the plan's profile limit: billing is not there.
    await killHard(Number(readFileSync(join(repoRoot, ".data/stack/test/billing.pid"), "utf8")));
    const redis = new Redis(stackEnv().REDIS_URL ?? "redis://127.0.0.1:6379");
    try {
      expect((await session.put(`/api/contacts/imports/${id}`, { duplicates: "update" })).status).toBeLessThan(400);
      const job = `${stackEnv().CRAFTER_NAMESPACE ?? "crafter_test"}:bull:contact-imports:import-${id}`;
      const until = Date.now() + 60_000;
      let failedAttempts = 0;
      while (failedAttempts < 2 && Date.now() < until) {
        failedAttempts = Number((await redis.hget(job, "atm")) ?? 0); // BullMQ's attempts made
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(failedAttempts).toBeGreaterThanOrEqual(2);
      const during = await session.get(`/api/contacts/imports/${id}`);
      expect(during.body.result.status).not.toBe("error");
    } finally {
      redis.disconnect();
      await promisify(execFile)("node", ["scripts/stack.mjs", "up", "--profile", "test", "billing"], {
        cwd: repoRoot,
        env: process.env,
      });
    }
    const done = await untilDone(session, id);
    expect(done.status).toBe("result");
    expect(done.result).toMatchObject({ processed: 120, created: 120, failed: 0 });
    expect((await session.get("/api/contacts?pageSize=1")).body.result.meta.count).toBe(120);
  });
});

/** A connection to one of the stack's service databases; close it after. */
function serviceDatabase(service: string) {
  const env = stackEnv();
  return mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
      dbName: `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_${service}`.replace(/-/g, "_"),
    })
    .asPromise();
}

describe("a kill -9 of the contacts service in the middle of an import", () => {
  it("resumes the job on BullMQ and applies every row once: each new contact created once, each update and consent change once", async () => {
    const { session, projectId } = await userWithProject("imports-kill");
    const userId = JSON.parse(
      Buffer.from((session.cookies.get("crafter_at") ?? "").split(".")[1] ?? "", "base64url").toString(),
    ).sub as string;
    // On Pro (5,000 profiles), as Stripe's subscription webhook would put the user.
    const billing = await serviceDatabase("billing");
    const now = new Date();
    await billing.collection("subscriptions").insertOne({
      _id: randomUUID() as never,
      userId,
      plan: "pro",
      planKey: "ProMonthly",
      status: "active",
      createdAt: now,
      updatedAt: now,
    });
    await billing.close();
    // 1,200 people already there (pending consent), written straight into the database.
    const EXISTING = 1200;
    const contactsDb = await serviceDatabase("contacts");
    const contacts = contactModel(contactsDb);
    const seeded = Array.from({ length: EXISTING }, (_, i) =>
      contactDocument({ userId, projectId }, { email: `old${i}@kill.test`, firstName: `Old${i}`, consent: "pending" }),
    );
    await contacts.insertMany(seeded, { ordered: false });
    await forgetContactSnapshot({ userId, projectId });
    // 2,400 rows, alternating: an update of an existing person (a new name, opted in: a consent
    // change) and a new person. Each batch of 500 holds both kinds.
    const rows = Array.from({ length: 2 * EXISTING }, (_, i) =>
      i % 2 === 0
        ? `old${i / 2}@kill.test,Renamed${i / 2},2025-01-05 10:00:00`
        : `new${(i - 1) / 2}@kill.test,New${(i - 1) / 2},2025-01-05 10:00:00`,
    );
    const uploaded = await upload(session, ["Email Address,First Name,OPTIN_TIME", ...rows].join("\n"));
    const id = uploaded.body.result.id;
    expect((await session.put(`/api/contacts/imports/${id}`, { duplicates: "update" })).status).toBeLessThan(400);
    const until = Date.now() + 120_000;
    let seen = 0;
    while (seen === 0 && Date.now() < until) {
      seen = (await session.get(`/api/contacts/imports/${id}`)).body.result.result.processed;
      if (seen === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(rows.length);
    // The process holding the job dies mid-batch, then comes back; BullMQ hands the stalled job to it
    // once the dead one's lock expires.
    const pid = Number(readFileSync(join(repoRoot, ".data/stack/test/contacts.pid"), "utf8"));
    await killHard(pid);
    // Not execFileSync: a blocked event loop would miss the gateway closing the session's idle
    // keep-alive socket, and the next request would be written to a closed socket.
    // On a loaded machine the restarted service may take longer than stack.mjs's 60 s to say it is
    // ready (its first outbox pass); it is the import's end this test waits for (untilDone, 180 s).
    await promisify(execFile)("node", ["scripts/stack.mjs", "up", "--profile", "test", "contacts"], {
      cwd: repoRoot,
      env: process.env,
    }).catch((error: Error) => {
      const restarted = Number(readFileSync(join(repoRoot, ".data/stack/test/contacts.pid"), "utf8"));
      if (restarted === pid || !/did not become healthy/.test(error.message)) throw error;
      process.kill(restarted, 0);
    });
    const done = await untilDone(session, id);
    expect(done.status).toBe("result");
    expect(done.result).toMatchObject({
      processed: rows.length,
      created: EXISTING,
      updated: EXISTING,
      skipped: 0,
      failed: 0,
      overLimit: 0,
    });
    const stored = await contacts.find({ userId, projectId }, { email: 1, firstName: 1, consent: 1 }).lean();
    expect(stored).toHaveLength(2 * EXISTING);
    expect(new Set(stored.map((c) => c.email)).size).toBe(2 * EXISTING);
    expect(stored.filter((c) => c.email.startsWith("old") && c.firstName.startsWith("Renamed"))).toHaveLength(EXISTING);
    // One consent change per row: the update's "subscribed", the new contact's first status.
    const changes = await contactsDb
      .collection("consent_changes")
      .find({ userId, projectId, source: "import" }, { projection: { contactId: 1 } })
      .toArray();
    expect(changes).toHaveLength(2 * EXISTING);
    expect(new Set(changes.map((c) => c.contactId)).size).toBe(2 * EXISTING);
    await contactsDb.close();
    expect((await session.get(`/api/contacts?projectId=${projectId}&pageSize=1`)).body.result.meta.count).toBe(
      2 * EXISTING,
    );
  });
});
