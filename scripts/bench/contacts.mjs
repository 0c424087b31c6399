#!/usr/bin/env node
// Contacts benchmark (issue 10; not a timed test): on a project of N contacts (default 50,000),
// p50/p95 of the table's first page, a token search and a 3-condition segment count through the
// gateway, and the time to import a 10,000-row CSV. Needs a running stack
// (STACK_PORT_OFFSET/CRAFTER_NAMESPACE as when it was started) and scripts/infra's servers.
// The N contacts are written straight into the contacts database in the service's document shape
// (the plan's profile limit stops an import at 250 for a free user); the import runs through the API.
//   node scripts/bench/contacts.mjs [--contacts 50000] [--import 10000] [--runs 7]
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { MongoClient } from "mongodb";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg("contacts", 50_000);
const IMPORT = arg("import", 10_000);
const RUNS = arg("runs", 7);
const env = Object.fromEntries(
  [".data/infra.env", ".data/stack/test/stack.env"].flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l.replace(/^export\s+/, "")))
      .map((l) => {
        const line = l.replace(/^export\s+/, "");
        const at = line.indexOf("=");
        return [line.slice(0, at), line.slice(at + 1).replace(/^"|"$/g, "")];
      }),
  ),
);
const gateway = env.GATEWAY_URL;
const namespace = process.env.CRAFTER_NAMESPACE ?? env.CRAFTER_NAMESPACE ?? "crafter";
const cookies = new Map();

async function call(method, path, body, type = "application/json") {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: {
      ...(method === "GET" ? {} : { "content-type": type, origin: gateway }),
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function verificationToken(email) {
  for (let i = 0; i < 100; i++) {
    const found = await (
      await fetch(`${env.MAILPIT_API_URL}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`)
    ).json();
    if (found.messages?.length) {
      const message = await (await fetch(`${env.MAILPIT_API_URL}/api/v1/message/${found.messages[0].ID}`)).json();
      return new URL(/https?:\/\/\S+\/verify\S*/.exec(message.Text)[0]).searchParams.get("token");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("no verification email");
}

const pct = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
async function timed(label, runs, f) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await f();
    times.push(performance.now() - start);
    if (result.status >= 400) throw new Error(`${label}: ${result.status} ${JSON.stringify(result.body)}`);
  }
  console.log(
    `${label.padEnd(34)} p50 ${pct(times, 50).toFixed(0).padStart(6)} ms   p95 ${pct(times, 95).toFixed(0).padStart(6)} ms   (${runs} runs)`,
  );
}

// A verified user with a project.
const email = `bench-contacts-${randomUUID().slice(0, 8)}@example.com`;
await call("POST", "/auth/signup", { email, password: "password-123" });
await call("POST", "/auth/verify", { token: await verificationToken(email) });
await call("POST", "/auth/signin", { email, password: "password-123" });
const project = await call("POST", "/api/projects/createProject", {
  name: "Bench",
  description: "Contacts benchmark project.",
});
const projectId = project.body.result.project.projectId;
const userId = JSON.parse(Buffer.from(cookies.get("crafter_at").split(".")[1], "base64url").toString()).sub;

// N contacts in the service's shape (services/contacts/src/store/contact.repository.ts).
const client = await MongoClient.connect(env.MONGODB_URL);
const contacts = client.db(`${namespace}_contacts`.replace(/-/g, "_")).collection("contacts");
const TAGS = ["vip", "lead", "spring", "newsletter", "wholesale"];
const CONSENT = ["pending", "subscribed", "unsubscribed"];
const words = (t) =>
  t
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const prefixes = (texts, mail) => {
  const out = new Set([mail]);
  for (const w of texts.flatMap(words))
    for (let e = Math.min(2, w.length); e <= Math.min(16, w.length); e++) out.add(w.slice(0, e));
  return [...out];
};
const seedStart = performance.now();
for (let at = 0; at < N; at += 1000) {
  const docs = [];
  for (let i = at; i < Math.min(N, at + 1000); i++) {
    const mail = `person${i}@company${i % 500}.example`;
    const tags = [TAGS[i % 5], ...(i % 7 === 0 ? [TAGS[(i + 1) % 5]] : [])];
    const consent = CONSENT[i % 3];
    const now = new Date(Date.now() - i * 60_000);
    docs.push({
      _id: randomUUID(),
      userId,
      projectId,
      email: mail,
      firstName: `First${i}`,
      lastName: `Last${i % 997}`,
      phone: "",
      company: `Company ${i % 500}`,
      customerKind: i % 2 ? "business" : "personal",
      contactType: "",
      tags,
      custom: {},
      customerSince: now,
      updatedOn: now,
      source: "import",
      consent,
      consentAt: now,
      interactionCounts: {},
      interactionCount: 0,
      searchTokens: prefixes([`First${i}`, `Last${i % 997}`, `Company ${i % 500}`, mail], mail),
      facets: [
        ...tags.map((t) => `tags:${t}`),
        `consent:${consent}`,
        `customerKind:${i % 2 ? "business" : "personal"}`,
        "source:import",
      ],
      outbox: [],
      createdAt: now,
    });
  }
  await contacts.insertMany(docs, { ordered: false });
}
console.log(
  `seeded ${N} contacts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (direct insertMany, not measured below)`,
);

const q = `projectId=${projectId}`;
await timed("table page 1 (sort updated_on)", RUNS, () => call("GET", `/api/contacts?${q}&page=1&pageSize=20`));
await timed("search q=last42", RUNS, () => call("GET", `/api/contacts?${q}&q=last42&pageSize=20`));
const segment = {
  combinator: "and",
  rules: [
    { field: "tags", operator: "contains", value: "vip" },
    { field: "consent", operator: "==", value: "subscribed" },
    { field: "customerSince", operator: ">", value: new Date(Date.now() - 30 * 86_400_000).toISOString() },
  ],
};
await timed("segment count (3 conditions)", RUNS, () => call("POST", `/api/segments/preview?${q}`, { query: segment }));

// The import: a fresh project of the same user would share the plan limit, so a second user imports.
cookies.clear();
const email2 = `bench-import-${randomUUID().slice(0, 8)}@example.com`;
await call("POST", "/auth/signup", { email: email2, password: "password-123" });
await call("POST", "/auth/verify", { token: await verificationToken(email2) });
await call("POST", "/auth/signin", { email: email2, password: "password-123" });
await call("POST", "/api/projects/createProject", { name: "Bench import", description: "Contacts import benchmark." });
const rows = Array.from({ length: IMPORT }, (_, i) => `row${i}@example.com,Row,${i},"vip, spring",2025-01-01`);
const csv = ["Email Address,First Name,Last Name,TAGS,OPTIN_TIME", ...rows].join("\n");
const importStart = performance.now();
const uploaded = await call("POST", "/api/contacts/imports?name=bench.csv", csv, "text/csv");
const id = uploaded.body.result.id;
await call("PUT", `/api/contacts/imports/${id}`, { duplicates: "update" });
let state;
for (;;) {
  state = (await call("GET", `/api/contacts/imports/${id}`)).body.result;
  if (state.status === "result" || state.status === "error") break;
  await new Promise((r) => setTimeout(r, 250));
}
console.log(
  `import of ${IMPORT} rows                 ${((performance.now() - importStart) / 1000).toFixed(1)} s  ${JSON.stringify(state.result)}`,
);
await client.close();
