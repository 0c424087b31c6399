#!/usr/bin/env node
// The image edit preview on a 12-megapixel photo, through the gateway and the media service of a
// running test stack (STACK_PORT_OFFSET / CRAFTER_NAMESPACE as for the tests):
//   node scripts/bench/media.mjs [--runs 30] [--warmup 3]
// Prints the p50/p95/max latency of POST /api/media/assets/:id/preview and the media service's
// resident memory (VmRSS of its process, sampled every 50 ms) before and during the run.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";

const root = new URL("../..", import.meta.url).pathname;
const { values } = parseArgs({
  options: { runs: { type: "string", default: "30" }, warmup: { type: "string", default: "3" } },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);

function readEnv(file) {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}
const env = {
  ...readEnv(join(root, ".data/infra.env")),
  ...readEnv(join(root, ".data/stack/test/stack.env")),
  ...process.env,
};
const gateway = env.GATEWAY_URL ?? `http://127.0.0.1:${28080 + Number(process.env.STACK_PORT_OFFSET ?? 0)}`;
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";

async function post(path, body, cookie) {
  return fetch(`${gateway}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: gateway, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function signIn() {
  const email = `bench-media-${randomUUID().slice(0, 12)}@bench.example.test`;
  const password = "Bench-passw0rd!";
  await post("/auth/signup", { email, password });
  let token;
  for (let i = 0; i < 300 && !token; i++) {
    const search = await (await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`)).json();
    const hit = search.messages.find((m) => m.Subject.includes("Verify your email"));
    if (hit)
      token = /[?&]token=([^\s&)>"]+)/.exec(
        (await (await fetch(`${mailpit}/api/v1/message/${hit.ID}`)).json()).Text,
      )?.[1];
    else await new Promise((r) => setTimeout(r, 200));
  }
  await post("/auth/verify", { token: decodeURIComponent(token) });
  const response = await post("/auth/signin", { email, password });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith("crafter_at="));
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(";")[0];
}

/** A 4000×3000 photo-like JPEG (smooth noise), about what a phone takes. */
async function photo() {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .blur(2)
    .jpeg({ quality: 90 })
    .toBuffer();
}

function rssMb() {
  const pid = readFileSync(join(root, ".data/stack/test/media.pid"), "utf8").trim();
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

const cookie = await signIn();
const jpeg = await photo();
const form = new FormData();
form.set("file", new Blob([jpeg]), "12mp.jpg");
const uploaded = await (
  await fetch(`${gateway}/api/media/assets`, { method: "POST", body: form, headers: { cookie, origin: gateway } })
).json();
if (!uploaded.success) throw new Error(`upload failed: ${JSON.stringify(uploaded)}`);
const asset = uploaded.result;
const operations = [
  { op: "crop", x: 500, y: 300, width: 3000, height: 2250 },
  { op: "rotate", degrees: 90 },
  { op: "filter", name: "contrast", amount: 130 },
  { op: "text", text: "Summer sale", x: 100, y: 100, size: 160, color: "#ffffff" },
];

const before = rssMb();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMb());
}, 50);
const times = [];
for (let i = 0; i < warmup + runs; i++) {
  const t0 = performance.now();
  const response = await post(`/api/media/assets/${asset.id}/preview`, { operations }, cookie);
  const bytes = await response.arrayBuffer();
  const ms = performance.now() - t0;
  if (response.status !== 200 || bytes.byteLength === 0) throw new Error(`preview failed: ${response.status}`);
  if (i >= warmup) times.push(ms);
}
clearInterval(sampler);
const after = rssMb();

console.log(
  `image edit preview, ${asset.width}×${asset.height} JPEG (${(jpeg.length / 1024 / 1024).toFixed(1)} MB), ${operations.map((o) => o.op).join(" + ")}`,
);
console.log(`runs ${runs} (after ${warmup} warm-up, the first of which decodes the original into the preview cache)`);
console.log(
  `latency ms: p50 ${percentile(times, 50).toFixed(0)}  p95 ${percentile(times, 95).toFixed(0)}  max ${Math.max(...times).toFixed(0)}`,
);
console.log(`media service RSS MB: before ${before.toFixed(0)}  peak ${peak.toFixed(0)}  after ${after.toFixed(0)}`);
console.log(
  `load average ${(await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
