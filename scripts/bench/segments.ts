// Segments list benchmark (not a timed test): on a project of N contacts (default 10,000) and S
// saved segments (default 20) of mixed conditions, p50/p95 through the gateway of the segments list
// with each segment's consent counts (one pass over the project's snapshot for all of them), the
// list without counts, one segment's live count, and the "Ask for permission" preview of the project.
// The contacts are written straight into the contacts database in the service's shape (common.ts
// `contactDocument`); the first read builds the project's snapshot and is not measured. Needs the test
// stack and scripts/infra's servers.
//   node scripts/bench/run.mjs segments [--contacts 10000] [--segments 20] [--runs 9]
import { verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import { contactDocument, forgetContactSnapshot, numberArg, serviceDatabase, timed, userIdOf } from "./common";

const N = numberArg("contacts", 10_000);
const S = numberArg("segments", 20);
const RUNS = numberArg("runs", 9);

const { session } = await verifiedSession("bench-segments");
const project = await session.post("/api/projects/createProject", {
  name: "Bench",
  description: "Segments benchmark project.",
});
const projectId = project.body.result.project.projectId as string;
const userId = userIdOf(session);

const TAGS = ["vip", "lead", "spring", "newsletter", "wholesale"];
const CONSENT = ["pending", "subscribed", "unsubscribed"] as const;
const database = await serviceDatabase("contacts");
const contacts = contactModel(database);
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
console.log(`seeded ${N} contacts`);

const q = `projectId=${projectId}`;
const since = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
// Mixed kinds: a facet the snapshot narrows by, ranges, text contains, or-groups, negations.
const trees = Array.from({ length: S }, (_, i) => {
  const tag = TAGS[i % 5]!;
  switch (i % 5) {
    case 0:
      return { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] };
    case 1:
      return {
        combinator: "and",
        rules: [
          { field: "tags", operator: "contains", value: tag },
          { field: "customerSince", operator: ">", value: since(3 + i) },
        ],
      };
    case 2:
      return { combinator: "and", rules: [{ field: "company", operator: "contains", value: `${i}` }] };
    case 3:
      return {
        combinator: "or",
        rules: [
          { field: "customerKind", operator: "==", value: "business" },
          { field: "lastName", operator: "contains", value: `Last${i}` },
        ],
      };
    default:
      return {
        combinator: "and",
        not: true,
        rules: [{ field: "consent", operator: "==", value: "subscribed" }],
      };
  }
});
for (const [i, query] of trees.entries()) {
  const saved = await session.post(`/api/segments?${q}`, { name: `Segment ${i + 1}`, query });
  if (saved.status >= 400) throw new Error(`segment ${i}: ${saved.status} ${JSON.stringify(saved.body)}`);
}
// The first read builds the project's snapshot from the database (as after a Redis flush).
for (;;) {
  const first = await session.get(`/api/contacts?${q}&page=1&pageSize=20`);
  if (first.status === 200) break;
  if (first.status !== 503) throw new Error(`first page: ${first.status} ${JSON.stringify(first.body)}`);
}
const listed = await session.get(`/api/segments?${q}&counts=true`);
const totals = (listed.body.result as Array<{ counts: { total: number } }>).map((s) => s.counts.total);
console.log(`${S} segments, contacts each: ${totals.join(", ")}`);

const WIDTH = 40;
await timed(`segments list with counts (${S})`, RUNS, () => session.get(`/api/segments?${q}&counts=true`), WIDTH);
await timed(`segments list without counts (${S})`, RUNS, () => session.get(`/api/segments?${q}`), WIDTH);
await timed(
  "one segment's live count",
  RUNS,
  () => session.post(`/api/segments/preview?${q}`, { query: trees[1] }),
  WIDTH,
);
await timed(
  "ask-for-permission preview (project)",
  RUNS,
  () => session.post(`/api/contacts/consent-requests/preview?${q}`, {}),
  WIDTH,
);
process.exit(0);
