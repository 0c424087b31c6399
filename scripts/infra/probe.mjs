#!/usr/bin/env node
// Protocol-level readiness probes used by scripts/infra/infra (no npm dependencies).
//
//   node probe.mjs mongo HOST PORT   OP_MSG {ping: 1} on admin answers ok: 1
//   node probe.mjs kafka HOST PORT   ApiVersions answers without error and Metadata lists >= 1 broker
//   node probe.mjs smtp  HOST PORT   server greets with a 220 banner
//   node probe.mjs http  HOST PORT PATH   GET answers 2xx
//   node probe.mjs stripe HOST PORT  GET /v1/balance with a test key answers 2xx (stripe-mock)
//
//   node probe.mjs many NAME=KIND,HOST,PORT[,PATH] ...
//                                    all at once (one Node start); prints "NAME ok" or "NAME fail
//                                    REASON" per probe, NAMEs repeated must all pass; exit 0
//
// Exit 0 when ready, 1 otherwise (reason on stderr). PROBE_TIMEOUT_MS bounds each probe (default 2000).
import net from "node:net";

const timeoutMs = Number(process.env.PROBE_TIMEOUT_MS || 2000);

/** Connects, runs `talk(send, next)` where next(n) resolves with the next n bytes (or until a predicate). */
function session({ host, port }, talk) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    let waiter = null;
    const timer = setTimeout(() => fail(new Error(`timeout after ${timeoutMs}ms`)), timeoutMs);
    function fail(err) {
      clearTimeout(timer);
      sock.destroy();
      reject(err);
    }
    function pump() {
      if (!waiter) return;
      const n = waiter.need(buf);
      if (n > 0 && buf.length >= n) {
        const out = buf.subarray(0, n);
        buf = buf.subarray(n);
        const w = waiter;
        waiter = null;
        w.resolve(out);
      }
    }
    const read = (need) =>
      new Promise((res) => {
        waiter = { need, resolve: res };
        pump();
      });
    sock.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      pump();
    });
    sock.on("error", fail);
    sock.on("close", () => fail(new Error("connection closed")));
    sock.on("connect", () => {
      talk((b) => sock.write(b), read).then((v) => {
        clearTimeout(timer);
        sock.removeAllListeners("close");
        sock.destroy();
        resolve(v);
      }, fail);
    });
  });
}

// Length of one length-prefixed frame: Mongo's little-endian int32 counts itself, Kafka's big-endian one does not.
const frame = (sizeIncludesPrefix) => (b) => {
  if (b.length < 4) return Number.MAX_SAFE_INTEGER;
  return sizeIncludesPrefix ? b.readInt32LE(0) : 4 + b.readInt32BE(0);
};

function bsonPingAdmin() {
  const parts = [];
  const cstr = (s) => Buffer.from(`${s}\0`, "utf8");
  const i32 = (n) => {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    return b;
  };
  parts.push(Buffer.from([0x10]), cstr("ping"), i32(1));
  parts.push(Buffer.from([0x02]), cstr("$db"), i32(6), cstr("admin"));
  const body = Buffer.concat(parts);
  return Buffer.concat([i32(4 + body.length + 1), body, Buffer.from([0])]);
}

// Returns the top-level numeric "ok" field of a BSON document (or undefined).
function bsonOk(doc) {
  let i = 4;
  while (i < doc.length - 1) {
    const type = doc[i++];
    const end = doc.indexOf(0, i);
    const name = doc.toString("utf8", i, end);
    i = end + 1;
    let size;
    switch (type) {
      case 0x01:
        if (name === "ok") return doc.readDoubleLE(i);
        size = 8;
        break;
      case 0x10:
        if (name === "ok") return doc.readInt32LE(i);
        size = 4;
        break;
      case 0x12:
        if (name === "ok") return Number(doc.readBigInt64LE(i));
        size = 8;
        break;
      case 0x02:
      case 0x0d:
      case 0x0e:
        size = 4 + doc.readInt32LE(i);
        break;
      case 0x03:
      case 0x04:
      case 0x0f:
        size = doc.readInt32LE(i);
        break;
      case 0x05:
        size = 5 + doc.readInt32LE(i);
        break;
      case 0x07:
        size = 12;
        break;
      case 0x08:
        size = 1;
        break;
      case 0x09:
      case 0x11:
        size = 8;
        break;
      case 0x0a:
      case 0x7f:
      case 0xff:
        size = 0;
        break;
      case 0x13:
        size = 16;
        break;
      default:
        return undefined;
    }
    i += size;
  }
  return undefined;
}

async function mongo(target) {
  const doc = bsonPingAdmin();
  const msg = Buffer.alloc(16 + 4 + 1);
  msg.writeInt32LE(msg.length + doc.length, 0);
  msg.writeInt32LE(1, 4); // requestID
  msg.writeInt32LE(0, 8); // responseTo
  msg.writeInt32LE(2013, 12); // OP_MSG
  msg.writeUInt32LE(0, 16); // flagBits
  msg.writeUInt8(0, 20); // section kind 0: body
  const reply = await session(target, async (send, read) => {
    send(Buffer.concat([msg, doc]));
    return read(frame(true));
  });
  if (reply.readInt32LE(12) !== 2013) throw new Error(`unexpected opCode ${reply.readInt32LE(12)}`);
  const body = reply.subarray(21);
  const ok = bsonOk(body.subarray(0, body.readInt32LE(0)));
  if (ok !== 1) throw new Error(`ping answered ok=${ok}`);
}

function kafkaRequest(apiKey, apiVersion, correlationId, body) {
  const clientId = Buffer.from("crafter-infra-probe");
  const head = Buffer.alloc(4 + 2 + 2 + 4 + 2);
  head.writeInt32BE(2 + 2 + 4 + 2 + clientId.length + body.length, 0);
  head.writeInt16BE(apiKey, 4);
  head.writeInt16BE(apiVersion, 6);
  head.writeInt32BE(correlationId, 8);
  head.writeInt16BE(clientId.length, 12);
  return Buffer.concat([head, clientId, body]);
}

async function kafka(target) {
  const brokers = await session(target, async (send, read) => {
    // ApiVersions v0 (api key 18): response = correlation id, int16 error code, ...
    send(kafkaRequest(18, 0, 1, Buffer.alloc(0)));
    const av = await read(frame(false));
    if (av.readInt32BE(4) !== 1) throw new Error("ApiVersions: wrong correlation id");
    const err = av.readInt16BE(8);
    if (err !== 0) throw new Error(`ApiVersions error code ${err}`);
    // Metadata v1 (api key 3) for no topics: response = correlation id, [brokers], ...
    const noTopics = Buffer.alloc(4);
    noTopics.writeInt32BE(0);
    send(kafkaRequest(3, 1, 2, noTopics));
    const md = await read(frame(false));
    if (md.readInt32BE(4) !== 2) throw new Error("Metadata: wrong correlation id");
    return md.readInt32BE(8);
  });
  if (brokers < 1) throw new Error("Metadata lists no broker yet");
}

async function smtp(target) {
  const line = await session(target, async (send, read) => {
    const l = await read((b) => {
      const nl = b.indexOf("\n");
      return nl < 0 ? Number.MAX_SAFE_INTEGER : nl + 1;
    });
    send("QUIT\r\n");
    return l.toString("utf8");
  });
  if (!line.startsWith("220")) throw new Error(`unexpected SMTP greeting: ${line.trim()}`);
}

async function http({ host, port, urlPath = "/" }) {
  const res = await fetch(`http://${host}:${port}${urlPath}`, { signal: AbortSignal.timeout(timeoutMs) });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${urlPath} answered ${res.status}`);
}

/** stripe-mock answers 401 without a key; any test key is accepted. */
async function stripe({ host, port }) {
  const res = await fetch(`http://${host}:${port}/v1/balance`, {
    headers: { authorization: "Bearer sk_test_probe" },
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /v1/balance answered ${res.status}`);
}

const probes = { mongo, kafka, smtp, http, stripe };
const [kind, ...rest] = process.argv.slice(2);

if (kind === "many") {
  const checks = rest.map((arg) => {
    const [name, spec = ""] = arg.split("=");
    const [what, host, port, urlPath] = spec.split(",");
    const probe = probes[what];
    const run = probe ? probe({ host, port: Number(port), urlPath }) : Promise.reject(new Error(`no probe ${what}`));
    return run.then(
      () => [name, null],
      (err) => [name, err.message],
    );
  });
  const failures = new Map();
  for (const [name, error] of await Promise.all(checks)) {
    if (error) failures.set(name, error);
    else if (!failures.has(name)) failures.set(name, null);
  }
  for (const [name, error] of failures) process.stdout.write(error ? `${name} fail ${error}\n` : `${name} ok\n`);
  process.exit(0);
}

const [host, portArg, urlPath = "/"] = rest;
const port = Number(portArg);
if (!probes[kind] || !host || !Number.isInteger(port)) {
  console.error(
    "usage: node probe.mjs mongo|kafka|smtp|http|stripe HOST PORT [PATH]  |  many NAME=KIND,HOST,PORT[,PATH]...",
  );
  process.exit(2);
}
probes[kind]({ host, port, urlPath }).then(
  () => process.exit(0),
  (err) => {
    console.error(`${kind} ${host}:${port}: ${err.message}`);
    process.exit(1);
  },
);
