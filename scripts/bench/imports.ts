// Contact import benchmark (not a timed test): the time of a 10,000-row CSV import through
// the gateway, from upload to the import's result (target: under 10 s), twice:
// - updates: 10,000 rows of people already in the project (a new first name, a tag), deduplicated by
//   email and updated;
// - new: 10,000 rows of people not in the project, for a user on Pro (5,000 profiles): 5,000 become
//   contacts (each with its ContactCreated event), the 5,000 past the limit are reported as errors.
// Printed beside the figures measured before the profile count was made lazy and the relay woken
// once per import, with the 1-minute load average when each import started and ended, and the CPU
// time the contacts service, FerretDB and PostgreSQL spent meanwhile (FerretDB and PostgreSQL serve
// every stack on the machine: their figures include the others' work). The contacts service logs
// where each run's time went ("import run ended", ms per phase). The existing contacts are written
// straight into the contacts database in the service's own shape (common.ts `contactDocument`), and
// the user is put on Pro in billing's subscriptions collection, as a Stripe webhook would. Needs the
// test stack and scripts/infra's servers.
//   node scripts/bench/run.mjs imports [--contacts 10000] [--import 10000] [--only updates|new]
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import type { GatewaySession } from "@crafter/kit/testing";
import { verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import {
  contactDocument,
  cpuMs,
  forgetContactSnapshot,
  machine,
  numberArg,
  onProPlan,
  serviceDatabase,
  settle,
  stackPids,
  userIdOf,
} from "./common";

const N = numberArg("contacts", 10_000);
/** `--only updates` or `--only new` runs one of the two imports. */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const IMPORT = numberArg("import", 10_000);

/**
 * Measured on the test stack before (a billing call and a count of the user's contacts before the
 * first row, the relay woken after every batch), with the 1-minute load average at the start and end
 * of the import (four other stacks ran beside it).
 */
const BEFORE = {
  updates: "74.5 s at load 11.6 → 14.3; 59.9 s at 11.0 → 12.3",
  created: "18.8 s at load 14.3",
};

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

/** CPU seconds of the contacts service, FerretDB and PostgreSQL (every backend) over a run, from /proc. */
function cpuOf(pids: Record<string, number[]>): () => string {
  const before = new Map(
    Object.values(pids)
      .flat()
      .map((pid) => [pid, cpuMs(pid)] as const),
  );
  return () =>
    Object.entries(pids)
      .map(([name, list]) => {
        const ms = list.reduce((sum, pid) => {
          const delta = cpuMs(pid) - (before.get(pid) ?? Number.NaN);
          return Number.isFinite(delta) ? sum + delta : sum;
        }, 0);
        return `${name} ${(ms / 1000).toFixed(1)} s`;
      })
      .join(", ");
}

/** The processes whose CPU the table shows: this stack's contacts service, the shared FerretDB and PostgreSQL. */
function measuredPids(): Record<string, number[]> {
  const pgrep = (args: string[]) =>
    spawnSync("pgrep", args, { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number);
  return {
    contacts: Object.values(stackPids(["contacts"])),
    ferretdb: pgrep(["-f", "ferretdb.*--handler=postgresql"]),
    postgres: pgrep(["-x", "postgres"]),
  };
}

interface Measured {
  seconds: number;
  result: unknown;
  /** The 1-minute load average when the import started and when it ended. */
  load: [number, number];
  cpu: string;
}

async function measured(session: GatewaySession, projectId: string, csv: string): Promise<Measured> {
  console.log(machine());
  console.log(await settle());
  const before = loadavg()[0]!;
  const cpu = cpuOf(measuredPids());
  const { seconds, result } = await timedImport(session, projectId, csv);
  return { seconds, result, load: [before, loadavg()[0]!], cpu: cpu() };
}

const { session } = await verifiedSession("bench-imports");
const userId = userIdOf(session);
await onProPlan(userId);
const run = randomUUID().slice(0, 8);
const csvOf = (domain: string) =>
  [
    "Email Address,First Name,Last Name,TAGS,OPTIN_TIME",
    ...Array.from(
      { length: IMPORT },
      (_, i) => `person${i}@${domain},Renamed,${i},"imported, spring",2025-01-01 10:00:00`,
    ),
  ].join("\n");

let updates: Measured | undefined;
if (ONLY !== "new") {
  // Updates: N people already in the project.
  const updatesProject = await project(session);
  const database = await serviceDatabase("contacts");
  const contacts = contactModel(database);
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
  updates = await measured(session, updatesProject, csvOf(`u${run}.example`));
  // The new contacts go to a second project of the same user: the profile limit (5,000 on Pro) counts
  // the user's contacts in all projects, and the updates' project already holds N of them; those are
  // deleted first (straight from the database) so the limit leaves room for 5,000.
  const cleanup = await serviceDatabase("contacts");
  await contactModel(cleanup).deleteMany({ userId, projectId: updatesProject });
  await cleanup.close();
  await forgetContactSnapshot({ userId, projectId: updatesProject });
}
let created: Measured | undefined;
if (ONLY !== "updates") created = await measured(session, await project(session), csvOf(`n${run}.example`));

const row = (label: string, m: Measured | undefined, before: string) =>
  m &&
  console.log(
    `| ${label} | ${m.seconds.toFixed(1)} s | ${m.load[0].toFixed(1)} → ${m.load[1].toFixed(1)} | ${m.cpu} | ${before} | ${JSON.stringify(m.result)} |`,
  );
console.log(`\n| import of ${IMPORT} rows | now | load (1 min) | CPU during it | before | result |`);
console.log("|---|---|---|---|---|---|");
row("updates (contacts already there)", updates, BEFORE.updates);
row("new contacts (Pro: 5,000 in, the rest over the limit)", created, BEFORE.created);
process.exit(0);
