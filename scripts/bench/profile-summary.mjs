#!/usr/bin/env node
// Summarises V8 CPU profiles (node --cpu-prof): the top frames by self time, and the same grouped
// by package (node_modules/<pkg>, node: internals, our own code).
//   node scripts/bench/profile-summary.mjs <file.cpuprofile>… [--top 25]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const top = args.includes("--top") ? Number(args[args.indexOf("--top") + 1]) : 25;
const files = args.filter((arg, i) => arg.endsWith(".cpuprofile") && args[i - 1] !== "--top");

function packageOf(url) {
  if (!url) return "(native/V8)";
  if (url.startsWith("node:")) return "node internals";
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.includes("/dist/main.js") || url.includes("/services/")) return "crafter (ours)";
  return url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]);
    const key = node.id;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  const frames = new Map();
  const packages = new Map();
  for (const [id, time] of self) {
    const { callFrame } = byId.get(id);
    const short = callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/services\//, "services/");
    const name = `${callFrame.functionName || "(anonymous)"} ${short}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ""}`;
    frames.set(name, (frames.get(name) ?? 0) + time);
    const pkg = packageOf(callFrame.url) + (callFrame.functionName === "(idle)" ? " idle" : "");
    packages.set(pkg, (packages.get(pkg) ?? 0) + time);
  }
  const pct = (time) => `${((100 * time) / total).toFixed(1)}%`.padStart(6);
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log("  self time by package:");
  for (const [name, time] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${pct(time)}  ${name}`);
  console.log(`  top ${top} frames by self time:`);
  for (const [name, time] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(time)}  ${name}`);
}
