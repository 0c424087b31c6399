#!/usr/bin/env node
// What FerretDB runs inside its backend, and what it costs: for each kind of filter, whether
// `explain` reports it pushed down (filter / sort / limit) and the median time of the `find` on
// collections of several sizes; then again once `createIndex` covers the fields the equality
// filters use (on FerretDB/PostgreSQL, with the scan PostgreSQL chose: "Seq Scan", or a "Bitmap
// Index Scan" on the GIN indexes scripts/infra adds beside FerretDB's btree ones), and what those
// indexes cost `insertMany`; then 50 concurrent `$inc` on one document (update isolation).
// Runs against any MONGODB_URL (on real MongoDB the pushdown columns read "-": its explain has no
// such fields), in its own database, which it drops at the end.
//
//   MONGODB_URL=mongodb://127.0.0.1:27017/ node scripts/bench/ferretdb-pushdown.mjs
//   options: --sizes 3000,30000   --runs 7   --json
//            --pushed-only   (skip the filters FerretDB evaluates in Go: seconds each at 30,000)
//
// Every equality filter matches 10 documents whatever the size (values repeat every size/10
// documents), so times grow with what the server scans, not with what it returns.
import { MongoClient, ObjectId } from "mongodb";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = option("--sizes", "3000,30000").split(",").map(Number);
const runs = Number(option("--runs", "7"));
const asJson = args.includes("--json");
const pushedOnly = args.includes("--pushed-only");
const url = process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/";
const dbName = `crafter_bench_pushdown_${process.pid}`;

/**
 * Median of `runs` timings (ms) of fn after one warm-up call; 3 runs when the warm-up took over
 * 300 ms, and the warm-up itself when it took over 3 s (a full decode of a large collection).
 */
async function median(fn) {
  const w0 = performance.now();
  await fn();
  const warmUp = performance.now() - w0;
  if (warmUp > 3000) return warmUp;
  const n = warmUp > 300 ? Math.min(runs, 3) : runs;
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const base = Date.UTC(2026, 0, 1);
const refs = Array.from({ length: Math.max(...sizes) / 10 }, () => new ObjectId());

function documentAt(i, size) {
  const k = i % (size / 10);
  return {
    userId: `user-${k}`,
    ref: refs[k],
    flag: i < 10, // exactly 10 documents are true
    at: new Date(base + k * 1000),
    n: k,
    tags: [`t${k}`, "all"],
    profile: { city: `city-${k}` },
    name: `name ${i}`,
    pad: "x".repeat(200),
  };
}

/** The queries measured: label, filter, and optionally sort and limit. k is a value that exists. */
function queries(size, ids) {
  const k = Math.floor(size / 20);
  return [
    { label: "_id equality", filter: { _id: ids[Math.floor(ids.length / 2)] } },
    { label: "string equality", filter: { userId: `user-${k}` } },
    { label: "ObjectId equality", filter: { ref: refs[k] } },
    { label: "boolean equality", filter: { flag: true } },
    { label: "date equality", filter: { at: new Date(base + k * 1000) } },
    { label: "integer equality", filter: { n: k } },
    { label: "array contains value", filter: { tags: `t${k}` } },
    { label: "two equalities (AND)", filter: { userId: `user-${k}`, n: k } },
    { label: "$eq operator", filter: { userId: { $eq: `user-${k}` } } },
    { label: "dot path equality", filter: { "profile.city": `city-${k}` } },
    { label: "$in (2 strings)", filter: { userId: { $in: [`user-${k}`, `user-${k + 1}`] } } },
    { label: "range $gte+$lt (int)", filter: { n: { $gte: k, $lt: k + 1 } } },
    { label: "range on date", filter: { at: { $gte: new Date(base + k * 1000), $lt: new Date(base + k * 1000 + 1) } } },
    { label: "$regex anchored", filter: { userId: { $regex: `^user-${k}$` } } },
    { label: "$or of equalities", filter: { $or: [{ userId: `user-${k}` }, { n: k + 1 }] } },
    { label: "equality + sort + limit 5", filter: { userId: `user-${k}` }, sort: { at: -1 }, limit: 5 },
    { label: "sort + limit 10 (all docs)", filter: {}, sort: { n: 1 }, limit: 10 },
    { label: "limit 10 (no sort)", filter: {}, limit: 10 },
  ];
}

/** The indexes the equality filters above can use, as a service would declare them. */
const INDEXES = [{ userId: 1 }, { ref: 1 }, { flag: 1 }, { at: 1 }, { n: 1 }, { tags: 1 }, { userId: 1, n: -1 }];

/** The scans of a PostgreSQL plan: "Seq Scan", "Bitmap Index Scan", "BitmapAnd(…)". */
function scans(plan) {
  if (!plan || typeof plan !== "object") return [];
  const type = plan["Node Type"] ?? "";
  const children = (plan.Plans ?? []).flatMap(scans);
  if (type === "BitmapAnd" || type === "BitmapOr") return [`${type}(${children.join(", ")})`];
  if (children.length === 0) return type ? [type.replace(/^Parallel /, "")] : [];
  return children;
}

async function explainFind(db, coll, q) {
  const find = { find: coll, filter: q.filter };
  if (q.sort) find.sort = q.sort;
  if (q.limit) find.limit = q.limit;
  const out = await db.command({ explain: find });
  const flag = (v) => (v === undefined ? "-" : v ? "yes" : "no");
  const scan = [...new Set(scans(out.queryPlanner?.Plan))].join("+") || "-";
  return { filter: flag(out.filterPushdown), sort: flag(out.sortPushdown), limit: flag(out.limitPushdown), scan };
}

async function timeFind(c, q) {
  let matched = 0;
  const ms = await median(async () => {
    let cursor = c.find(q.filter);
    if (q.sort) cursor = cursor.sort(q.sort);
    if (q.limit) cursor = cursor.limit(q.limit);
    matched = (await cursor.toArray()).length;
  });
  return { ms, matched };
}

async function insertAll(c, size) {
  const t0 = performance.now();
  const ids = [];
  for (let from = 0; from < size; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - from) }, (_, j) => documentAt(from + j, size));
    const res = await c.insertMany(batch, { ordered: false });
    ids.push(...Object.values(res.insertedIds));
  }
  return { ids, ms: performance.now() - t0 };
}

async function measureSize(db, size) {
  const coll = `docs_${size}`;
  const c = db.collection(coll);
  await c.drop().catch(() => undefined);
  const { ids, ms: insertMs } = await insertAll(c, size);
  const rows = [];
  const pushed = [];
  for (const q of queries(size, ids)) {
    const pushdown = await explainFind(db, coll, q);
    if (pushedOnly && pushdown.filter === "no") continue;
    if (pushdown.filter !== "no") pushed.push(q);
    rows.push({ label: q.label, size, ...(await timeFind(c, q)), ...pushdown });
  }
  // The pushed-down ones again, once createIndex covers their fields.
  const t0 = performance.now();
  for (const key of INDEXES) await c.createIndex(key);
  const createIndexMs = performance.now() - t0;
  for (const q of pushed) {
    const pushdown = await explainFind(db, coll, q);
    rows.push({ label: q.label, size, indexed: true, ...(await timeFind(c, q)), ...pushdown });
  }
  // What the indexes cost writes: the same documents into a collection that has them all.
  const ic = db.collection(`${coll}_indexed`);
  for (const key of INDEXES) await ic.createIndex(key);
  const { ms: indexedInsertMs } = await insertAll(ic, size);
  await ic.drop();
  return { rows, insertMs, indexedInsertMs, createIndexMs };
}

/** 50 concurrent {$inc: {n: 1}} on one document: isolated updates end at 50. */
async function incRace(db) {
  const c = db.collection("counter");
  await c.insertOne({ _id: "one", n: 0 });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, () => c.updateOne({ _id: "one" }, { $inc: { n: 1 } })));
  const ms = performance.now() - t0;
  const doc = await c.findOne({ _id: "one" });
  return { expected: 50, got: doc.n, ms };
}

const client = new MongoClient(url, { maxPoolSize: 60, serverSelectionTimeoutMS: 10_000 });
await client.connect();
const db = client.db(dbName);
try {
  const build = await db.admin().command({ buildInfo: 1 });
  const server = build.ferretdbVersion ? `FerretDB ${build.ferretdbVersion}` : `MongoDB ${build.version}`;
  const results = [];
  const inserts = {};
  for (const size of sizes) {
    const { rows, insertMs, indexedInsertMs, createIndexMs } = await measureSize(db, size);
    results.push(...rows);
    inserts[size] = { plain: insertMs, indexed: indexedInsertMs, createIndex: createIndexMs };
  }
  const race = await incRace(db);
  if (asJson) {
    console.log(JSON.stringify({ server, url, runs, inserts, results, race }, null, 2));
  } else {
    console.log(
      `${server} at ${url}; median of ${runs} runs (3 when slower than 300 ms, 1 over 3 s); every filter matches <= 10 documents\n`,
    );
    const labels = [...new Set(results.map((r) => r.label))];
    const header = ["query", "filter↓", "sort↓", "limit↓", "scan", ...sizes.map((s) => `${s} docs`)];
    header.push("scan, indexed", ...sizes.map((s) => `${s} indexed`));
    const cell = (r) => (r ? `${r.ms.toFixed(1)} ms (${r.matched})` : "");
    const table = labels.map((label) => {
      const mine = results.filter((r) => r.label === label && !r.indexed);
      const idx = results.filter((r) => r.label === label && r.indexed);
      const first = mine[0];
      return [
        label,
        first.filter,
        first.sort,
        first.limit,
        first.scan,
        ...sizes.map((s) => cell(mine.find((r) => r.size === s))),
      ].concat(idx[0]?.scan ?? "", ...sizes.map((s) => cell(idx.find((r) => r.size === s))));
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
    const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(" | ")} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const row of table) console.log(line(row));
    console.log(`\n↓ = pushed down to the backend per explain ("-": not reported). (n) = documents returned.`);
    console.log(`"indexed": after createIndex of ${INDEXES.map((k) => JSON.stringify(k)).join(" ")}.`);
    for (const s of sizes) {
      const i = inserts[s];
      console.log(
        `insertMany of ${s} docs, batches of 1000: ${i.plain.toFixed(0)} ms; with those indexes: ${i.indexed.toFixed(0)} ms; ` +
          `creating them on the ${s} docs: ${i.createIndex.toFixed(0)} ms`,
      );
    }
    console.log(
      `50 concurrent $inc on one document: n = ${race.got} (isolated updates give ${race.expected}), ${race.ms.toFixed(0)} ms`,
    );
  }
} finally {
  await db.dropDatabase().catch(() => undefined);
  await client.close();
}
