// Contact import benchmark (not a timed test): the time of a 10,000-row CSV import through
// the gateway, from upload to the import's result (target: under 10 s), twice:
// - updates: 10,000 rows of people already in the project (a new first name, a tag), deduplicated by
//   email and updated;
// - new: 10,000 rows of people not in the project, for a user on Pro (5,000 profiles): 5,000 become
//   contacts (each with its ContactCreated event), the 5,000 past the limit are reported as errors.
// Printed beside the figure measured before imports ran on BullMQ with bulk writes. The existing
// contacts are written straight into the contacts database in the service's own shape (common.ts
// `contactDocument`), and the user is put on Pro in billing's subscriptions collection, as a Stripe
// webhook would. Needs the test stack and scripts/infra's servers.
//   node scripts/bench/run.mjs imports [--contacts 10000] [--import 10000]
import { randomUUID } from "node:crypto";
import type { GatewaySession } from "@crafter/kit/testing";
import { verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import {
  contactDocument,
  forgetContactSnapshot,
  machine,
  numberArg,
  onProPlan,
  serviceDatabase,
  settle,
  userIdOf,
} from "./common";

const N = numberArg("contacts", 10_000);
const IMPORT = numberArg("import", 10_000);

/** Measured before this benchmark existed: scripts/bench/contacts.ts, 10,000 updates in a 50,000-contact project, load average about 3. */
const BEFORE_UPDATES_S = 60.8;

async function project(session: GatewaySession): Promise<string> {
  const created = await session.post("/api/projects/createProject", {
    name: "Import bench",
    description: "Import benchmark project.",
  });
  return created.body.result.project.projectId as string;
}

/** Uploads `csv`, starts it with `duplicates: update`, polls until it ends; seconds from upload to result. */
async function timedImport(
  session: GatewaySession,
  projectId: string,
  csv: string,
): Promise<{ seconds: number; result: unknown }> {
  const started = performance.now();
  const uploaded = await session.request("POST", `/api/contacts/imports?name=bench.csv&projectId=${projectId}`, csv, {
    "content-type": "text/csv",
  });
  if (uploaded.status >= 400) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  const id = uploaded.body.result.id as string;
  const start = await session.put(`/api/contacts/imports/${id}`, { duplicates: "update" });
  if (start.status >= 400) throw new Error(`start: ${start.status} ${JSON.stringify(start.body)}`);
  for (;;) {
    const state = (await session.get(`/api/contacts/imports/${id}`)).body.result;
    if (state.status === "error") throw new Error(`import failed: ${JSON.stringify(state)}`);
    if (state.status === "result") return { seconds: (performance.now() - started) / 1000, result: state.result };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const { session } = await verifiedSession("bench-imports");
const userId = userIdOf(session);
await onProPlan(userId);

// Updates: N people already in the project.
const updatesProject = await project(session);
const database = await serviceDatabase("contacts");
const contacts = contactModel(database);
const run = randomUUID().slice(0, 8);
const seedStart = performance.now();
for (let at = 0; at < N; at += 1000) {
  const docs = Array.from({ length: Math.min(1000, N - at) }, (_, k) =>
    contactDocument(
      { userId, projectId: updatesProject },
      { email: `person${at + k}@u${run}.example`, firstName: `First${at + k}`, lastName: "Bench", tags: ["lead"] },
    ),
  );
  await contacts.insertMany(docs, { ordered: false });
}
await database.close();
await forgetContactSnapshot({ userId, projectId: updatesProject });
console.log(`seeded ${N} contacts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (not measured below)`);
// The project's snapshot, built once from the database (as the first page after a Redis flush).
for (;;) {
  const first = await session.get(`/api/contacts?projectId=${updatesProject}&page=1&pageSize=20`);
  if (first.status === 200) break;
}

const csvOf = (domain: string) =>
  [
    "Email Address,First Name,Last Name,TAGS,OPTIN_TIME",
    ...Array.from(
      { length: IMPORT },
      (_, i) => `person${i}@${domain},Renamed,${i},"imported, spring",2025-01-01 10:00:00`,
    ),
  ].join("\n");

console.log(machine());
console.log(await settle());
const updates = await timedImport(session, updatesProject, csvOf(`u${run}.example`));
console.log(machine());
console.log(await settle());
// The new contacts go to a second project of the same user: the profile limit (5,000 on Pro) counts
// the user's contacts in all projects, and the updates' project already holds N of them; those are
// deleted first (straight from the database) so the limit leaves room for 5,000.
const cleanup = await serviceDatabase("contacts");
await contactModel(cleanup).deleteMany({ userId, projectId: updatesProject });
await cleanup.close();
await forgetContactSnapshot({ userId, projectId: updatesProject });
const newProject = await project(session);
const created = await timedImport(session, newProject, csvOf(`n${run}.example`));

const row = (label: string, seconds: number, before: string, result: unknown) =>
  console.log(`| ${label} | ${seconds.toFixed(1)} s | ${before} | ${JSON.stringify(result)} |`);
console.log(`\n| import of ${IMPORT} rows | now | before | result |`);
console.log("|---|---|---|---|");
row("updates (contacts already there)", updates.seconds, `${BEFORE_UPDATES_S} s`, updates.result);
row("new contacts (Pro: 5,000 in, the rest over the limit)", created.seconds, "not measured", created.result);
process.exit(0);
