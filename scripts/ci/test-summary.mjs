#!/usr/bin/env node
// Totals the JUnit XML files that jest (unit, integration, e2e, ai-provider) and schemathesis wrote to
// test-results/ during `make test` and prints one line per project and a total. Exits 1 when any test failed or
// when no test ran at all, so a run that silently skipped its suites cannot pass.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = join(import.meta.dirname, "../../test-results");
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".xml")) : [];
const byProject = new Map();
for (const file of files) {
  const xml = readFileSync(join(dir, file), "utf8");
  for (const match of xml.matchAll(/<testsuite ([^>]*)>/g)) {
    const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(match[1])?.[1] ?? 0);
    const project = /\bname="(\w+)/.exec(match[1])?.[1] ?? "tests";
    const row = byProject.get(project) ?? { tests: 0, failures: 0, errors: 0, skipped: 0 };
    row.tests += attr("tests");
    row.failures += attr("failures");
    row.errors += attr("errors");
    row.skipped += attr("skipped");
    byProject.set(project, row);
  }
}
let total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
console.log("\n== test summary (JUnit XML in test-results/)");
for (const [project, row] of byProject) {
  console.log(
    `${project.padEnd(12)} ${String(row.tests).padStart(5)} tests  ${row.failures + row.errors} failed  ${row.skipped} skipped`,
  );
  total = {
    tests: total.tests + row.tests,
    failures: total.failures + row.failures,
    errors: total.errors + row.errors,
    skipped: total.skipped + row.skipped,
  };
}
const failed = total.failures + total.errors;
// The closing line is the plain "N passed, N failed, N skipped" that CI reads for a verdict: a
// trailing "N total" would hide it.
console.log(`Tests: ${total.tests - failed - total.skipped} passed, ${failed} failed, ${total.skipped} skipped`);
if (total.tests === 0 || failed > 0) process.exit(1);
