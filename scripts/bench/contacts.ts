// Contacts benchmark (not a timed test): on a project of N contacts (default 50,000),
// p50/p95 of the table's first page, a token search and a 3-condition segment count through the
// gateway, and the time to import a 10,000-row CSV into that project. Needs the test stack and
// scripts/infra's servers.
// The N contacts are written straight into the contacts database in the service's own shape
// (common.ts `contactDocument`: the plan's profile limit stops a free user at 250); the import runs
// through the API and updates 10,000 of them.
//   node scripts/bench/run.mjs contacts [--contacts 50000] [--import 10000] [--runs 7]
import { verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import { contactDocument, forgetContactSnapshot, numberArg, serviceDatabase, timed, userIdOf } from "./common";

const N = numberArg("contacts", 50_000);
const IMPORT = numberArg("import", 10_000);
const RUNS = numberArg("runs", 7);

const { session } = await verifiedSession("bench-contacts");
const project = await session.post("/api/projects/createProject", {
  name: "Bench",
  description: "Contacts benchmark project.",
});
const projectId = project.body.result.project.projectId as string;
const userId = userIdOf(session);

const TAGS = ["vip", "lead", "spring", "newsletter", "wholesale"];
const CONSENT = ["pending", "subscribed", "unsubscribed"] as const;
const database = await serviceDatabase("contacts");
const contacts = contactModel(database);
const seedStart = performance.now();
for (let at = 0; at < N; at += 1000) {
  const docs = [];
  for (let i = at; i < Math.min(N, at + 1000); i++) {
    const when = new Date(Date.now() - i * 60_000);
    docs.push(
      contactDocument(
        { userId, projectId },
        {
          email: `person${i}@company${i % 500}.example`,
          firstName: `First${i}`,
          lastName: `Last${i % 997}`,
          company: `Company ${i % 500}`,
          customerKind: i % 2 ? "business" : "personal",
          tags: [TAGS[i % 5]!, ...(i % 7 === 0 ? [TAGS[(i + 1) % 5]!] : [])],
          consent: CONSENT[i % 3]!,
          customerSince: when,
        },
        when,
      ),
    );
  }
  await contacts.insertMany(docs, { ordered: false });
}
await database.close();
await forgetContactSnapshot({ userId, projectId });
console.log(
  `seeded ${N} contacts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (direct insertMany, not measured below)`,
);

const q = `projectId=${projectId}`;
// The contacts went straight into the database, past the project's snapshot in Redis (which every
// write through the service keeps): the first page builds it from a full read of the project, as after
// a Redis flush. That page may time out (503) while the build goes on; it is timed until a page answers.
const buildStart = performance.now();
for (;;) {
  const first = await session.get(`/api/contacts?${q}&page=1&pageSize=20`);
  if (first.status === 200) break;
  if (first.status !== 503) throw new Error(`first page: ${first.status} ${JSON.stringify(first.body)}`);
}
console.log(
  `snapshot built from the database      ${((performance.now() - buildStart) / 1000).toFixed(1)} s (once per project, after a Redis flush)`,
);
await timed("table page 1 (sort updated_on)", RUNS, () => session.get(`/api/contacts?${q}&page=1&pageSize=20`));
await timed("search q=last42", RUNS, () => session.get(`/api/contacts?${q}&q=last42&pageSize=20`));
const segment = {
  combinator: "and",
  rules: [
    { field: "tags", operator: "contains", value: "vip" },
    { field: "consent", operator: "==", value: "subscribed" },
    { field: "customerSince", operator: ">", value: new Date(Date.now() - 30 * 86_400_000).toISOString() },
  ],
};
await timed("segment count (3 conditions)", RUNS, () => session.post(`/api/segments/preview?${q}`, { query: segment }));

// The import: 10,000 rows of people already in the project (new names, a tag), deduplicated by
// email and updated. New rows would stop at the free plan's profile limit (250) and be reported as
// over it; updates take no room, so all 10,000 rows go through parsing, checks and writes.
const rows = Array.from(
  { length: Math.min(IMPORT, N) },
  (_, i) => `person${i}@company${i % 500}.example,Renamed,${i},"imported, spring",2025-01-01`,
);
const csv = ["Email Address,First Name,Last Name,TAGS,OPTIN_TIME", ...rows].join("\n");
const importer = session;
const importStart = performance.now();
const uploaded = await importer.request("POST", `/api/contacts/imports?name=bench.csv&${q}`, csv, {
  "content-type": "text/csv",
});
if (uploaded.status >= 400) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
const id = uploaded.body.result.id as string;
const started = await importer.put(`/api/contacts/imports/${id}`, { duplicates: "update" });
if (started.status >= 400) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
let state: { status: string; result?: unknown };
for (;;) {
  state = (await importer.get(`/api/contacts/imports/${id}`)).body.result;
  if (state.status === "result" || state.status === "error") break;
  await new Promise((r) => setTimeout(r, 250));
}
console.log(
  `import of ${IMPORT} rows                 ${((performance.now() - importStart) / 1000).toFixed(1)} s  ${JSON.stringify(state.result)}`,
);
process.exit(state.status === "result" ? 0 : 1);
