#!/usr/bin/env node
import { randomUUID } from "node:crypto";
// The bad-input sweep: sends every bad-input class to every /auth and /api route
// of the served OpenAPI document and counts the answers that break the rules: any 5xx, and any
// answer under /auth or /api that is not the envelope { success, result, errorMessage, error }. The
// classes with a rule of their own must answer exactly: a control character in a path segment or a
// query value 400, OPTIONS 204 with Allow, TRACE and PROPFIND 405 with Allow, a session route's
// write without credentials 401 (not the CSRF check's 403).
//   node scripts/security/sweep.mjs [--base URL] [--only REGEX]   (GATEWAY_URL, MAILPIT_API_URL)
//   node scripts/security/sweep.mjs --print-fixtures   signs a fresh user up; prints its token and crafts
// Exits 1 when it saw a 5xx or an envelope miss. Imported by services/gateway/test/sweep.int.test.ts.
import { request as httpRequest } from "node:http";
import { gzipSync } from "node:zlib";

const BIG = "a".repeat(1_000_000);
const ESCAPES = ["%", "%zz", "%E0%A4%A"];
/** Control characters (NUL, CR, LF, TAB, DEL, a C1), percent-encoded: 400 in a path segment or a query value. */
const CONTROLS = ["a%00b", "%0D%0A", "%09", "%7F", "%C2%85"];

/** A rule for answers that must be exactly `status` (in the envelope unless `bodyless`), with an Allow header when `allow`. */
function exactly(status, { allow = false, bodyless = false } = {}) {
  return (answer) => {
    if (answer.status !== status) return `want ${status}`;
    if (allow && !answer.headers.allow) return "no Allow header";
    if (!bodyless && !isEnvelope(answer.text)) return "not the envelope";
    return undefined;
  };
}

/** The JSON text of a value nested `depth` levels deep (objects and arrays), built without recursion. */
export function nested(depth) {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    open += i % 2 ? "[" : '{"a":';
    close = (i % 2 ? "]" : "}") + close;
  }
  return `${open}"deep"${close}`;
}

/** One raw HTTP request (node:http, so malformed paths and headers go out as written). */
export function send(base, { method, path, headers = {}, body }) {
  const url = new URL(base);
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body ? { "content-length": body.length } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", (error) => resolve({ status: 0, headers: {}, text: String(error) }));
    req.end(body);
  });
}

export function isEnvelope(text) {
  try {
    const body = JSON.parse(text);
    return (
      body !== null &&
      typeof body === "object" &&
      ["success", "result", "errorMessage", "error"].every((key) => key in body)
    );
  } catch {
    return false;
  }
}

/** Signs a fresh user up, verifies them from Mailpit and signs in; returns the Cookie header. */
export async function signedInCookie(base, mailpit) {
  const email = `sweep-${randomUUID().slice(0, 8)}@example.test`;
  const json = { "content-type": "application/json", origin: base };
  const post = (path, body, extra = {}) =>
    fetch(`${base}${path}`, { method: "POST", headers: { ...json, ...extra }, body: JSON.stringify(body) });
  await post("/auth/signup", { email, password: "password-123" });
  const deadline = Date.now() + 20_000;
  let token;
  while (!token && Date.now() < deadline) {
    const found = await (await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`)).json();
    const hit = found.messages?.[0];
    if (hit) {
      const message = await (await fetch(`${mailpit}/api/v1/message/${hit.ID}`)).json();
      token = /[?&]token=([^\s&)>"]+)/.exec(message.Text)?.[1];
    } else await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!token) throw new Error(`no verification mail for ${email}`);
  await post("/auth/verify", { token: decodeURIComponent(token) });
  const signin = await post("/auth/signin", { email, password: "password-123" });
  const cookie = signin.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return cookie;
}

/** A project and a craft of it, so craft routes get past their path parameters. */
async function fixtures(base, cookie) {
  const headers = { "content-type": "application/json", origin: base, cookie };
  await fetch(`${base}/api/projects/createProject`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "Sweep Co",
      description: "A bakery that bakes bread for the sweep.",
      keywords: ["bread"],
    }),
  });
  const created = await (
    await fetch(`${base}/api/workflowsV2`, {
      method: "POST",
      headers,
      body: JSON.stringify({ workflowName: "BlogWriter" }),
    })
  ).json();
  const craft = created.result ?? {};
  return { id: craft.craftId ?? "000000000000000000000000", stepName: craft.steps?.[0]?.name ?? "topic" };
}

/** Top-level property names of a request body schema by kind ("string" or "object"). */
function bodyFields(schema, kind) {
  const props = schema?.properties ?? {};
  return Object.entries(props)
    .filter(([, prop]) => prop.type === kind || (Array.isArray(prop.type) && prop.type.includes(kind)))
    .map(([name]) => name);
}

/** Every bad-input request for one operation of the document. */
export function badRequests(path, method, op, fixture) {
  const fill = (params = {}) =>
    path.replace(/\{([^}]+)\}/g, (_m, name) =>
      encodeURIComponent(params[name] ?? (name === "id" ? fixture.id : name === "stepName" ? fixture.stepName : "x")),
    );
  const url = fill();
  const hasBody = Boolean(op.requestBody);
  const schema = op.requestBody?.content?.["application/json"]?.schema;
  const json = (extra = {}) => ({ "content-type": "application/json", ...extra });
  const out = [];
  const M = method.toUpperCase();
  const add = (cls, req) => out.push({ cls, method: M, ...req });
  // Malformed percent-escapes in each path parameter.
  for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    for (const bad of ESCAPES) {
      add("percent-escape", {
        path: path.replace(/\{([^}]+)\}/g, (_m, n) =>
          n === name ? bad : encodeURIComponent(n === "id" ? fixture.id : n === "stepName" ? fixture.stepName : "x"),
        ),
        headers: hasBody ? json() : {},
        body: hasBody ? Buffer.from("{}") : undefined,
      });
    }
  }
  // Control characters in each path parameter, and in a query value (on every route: one check for all).
  for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    for (const bad of CONTROLS) {
      add("control-char", {
        path: path.replace(/\{([^}]+)\}/g, (_m, n) =>
          n === name ? bad : encodeURIComponent(n === "id" ? fixture.id : n === "stepName" ? fixture.stepName : "x"),
        ),
        headers: hasBody ? json() : {},
        body: hasBody ? Buffer.from("{}") : undefined,
        want: exactly(400),
      });
    }
  }
  // The route's first documented query parameter, else one it ignores.
  const queryName = op.parameters?.find((p) => p.in === "query")?.name ?? "q";
  for (const bad of CONTROLS) {
    add("control-char", {
      path: `${url}?${encodeURIComponent(queryName)}=${bad}`,
      headers: hasBody ? json() : {},
      body: hasBody ? Buffer.from("{}") : undefined,
      want: exactly(400),
    });
  }
  // OPTIONS lists the methods; TRACE and unknown methods are 405 with them.
  out.push({
    cls: "method",
    method: "OPTIONS",
    path: url,
    headers: {},
    want: exactly(204, { allow: true, bodyless: true }),
  });
  for (const method of ["TRACE", "PROPFIND"])
    out.push({ cls: "method", method, path: url, headers: {}, want: exactly(405, { allow: true }) });
  // A session route without credentials (no cookie, no Origin) is 401, before the CSRF check.
  if (op.security?.length && M !== "GET")
    add("no-credentials", {
      path: url,
      headers: hasBody ? json() : {},
      body: hasBody ? Buffer.from("{}") : undefined,
      anonymousOnly: true,
      want: exactly(401),
    });
  // Huge and bad query values (every route: unknown ones are ignored, known ones validated).
  for (const query of [
    "page=99999999999",
    "page=-1",
    "page=abc",
    "pageSize=100000",
    "favorites=maybe",
    "page=1&page=2",
    `workflowName=${"w".repeat(5000)}`,
    "%",
    "page=%zz",
  ]) {
    add("query", {
      path: `${url}?${query}`,
      headers: hasBody ? json() : {},
      body: hasBody ? Buffer.from("{}") : undefined,
    });
  }
  if (!hasBody) return out;
  add("charset", {
    path: url,
    headers: { "content-type": "application/json; charset=latin1" },
    body: Buffer.from("{}"),
  });
  add("charset", {
    path: url,
    headers: { "content-type": "application/json; charset=utf-7" },
    body: Buffer.from("{}"),
  });
  add("content-encoding", { path: url, headers: json({ "content-encoding": "foo" }), body: Buffer.from("{}") });
  add("content-encoding", { path: url, headers: json({ "content-encoding": "gzip, br" }), body: Buffer.from("{}") });
  add("gzip-not-gzip", { path: url, headers: json({ "content-encoding": "gzip" }), body: Buffer.from('{"name":"x"}') });
  add("deflate-not-deflate", { path: url, headers: json({ "content-encoding": "deflate" }), body: Buffer.from("{}") });
  add("gzip-bomb", {
    path: url,
    headers: json({ "content-encoding": "gzip" }),
    body: gzipSync(Buffer.from(`{"x":"${"a".repeat(3_000_000)}"}`)),
  });
  add("malformed-json", { path: url, headers: json(), body: Buffer.from('{"a":') });
  for (const body of ["[]", '"text"', "null", "42", "true", ""])
    add("wrong-type", { path: url, headers: json(), body: Buffer.from(body) });
  add("deep-json", { path: url, headers: json(), body: Buffer.from(nested(5000)) });
  add("too-large", { path: url, headers: json(), body: Buffer.from(JSON.stringify({ x: "a".repeat(1_100_000) })) });
  for (const field of bodyFields(schema, "string")) {
    add("big-string", { path: url, headers: json(), body: Buffer.from(JSON.stringify({ [field]: BIG })) });
    add("wrong-field-type", {
      path: url,
      headers: json(),
      body: Buffer.from(JSON.stringify({ [field]: { $gt: "" } })),
    });
  }
  const objects = bodyFields(schema, "object");
  if (schema?.additionalProperties !== undefined || schema?.propertyNames) objects.push("");
  // A body with `field` set to the JSON text `value` (the top-level object itself when field is "").
  const withField = (field, value) =>
    field === ""
      ? value
      : `{"stepName":${JSON.stringify(fixture.stepName)},"name":"x",${JSON.stringify(field)}:${value}}`;
  for (const field of objects) {
    for (const depth of [40, 200, 5000]) {
      add("deep-field", { path: url, headers: json(), body: Buffer.from(withField(field, `{"k":${nested(depth)}}`)) });
    }
    add("big-string", { path: url, headers: json(), body: Buffer.from(withField(field, JSON.stringify({ k: BIG }))) });
  }
  return out;
}

/** Unknown paths under /auth and /api, with and without a session. */
function unknownPaths() {
  return [
    "/api/nope",
    "/auth/nope",
    "/api/workflowsV2/a/b/c/d/e",
    "/api/%",
    "/auth/%zz",
    "/api/openapi.yaml",
    "/api/projects/check-list",
  ].flatMap((path) => [
    { cls: "unknown-path", method: "GET", path, headers: {} },
    {
      cls: "unknown-path",
      method: "POST",
      path,
      headers: { "content-type": "application/json" },
      body: Buffer.from("{}"),
    },
  ]);
}

/**
 * Runs the sweep. `only` filters operations by "METHOD path" (a RegExp), `anonymous` also sends
 * every request without the session.
 * @returns { sent, serverErrors, envelopeMisses, failures: [{ cls, method, path, status }] , byClass }
 */
export async function sweep({ base, cookie, only, anonymous = true, concurrency = 4 }) {
  const document = await (await fetch(`${base}/api/openapi.json`)).json();
  const fixture = await fixtures(base, cookie);
  const requests = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (only && !only.test(`${method.toUpperCase()} ${path}`)) continue;
      requests.push(...badRequests(path, method, op, fixture));
    }
  }
  requests.push(...unknownPaths());
  const jobs = requests.flatMap((req) =>
    req.anonymousOnly
      ? [req]
      : [
          { ...req, headers: { ...req.headers, origin: base, cookie } },
          ...(anonymous ? [{ ...req, headers: { ...req.headers, origin: base } }] : []),
        ],
  );
  const result = { sent: 0, serverErrors: 0, envelopeMisses: 0, failures: [], byClass: {} };
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const answer = await send(base, job);
      result.sent++;
      result.byClass[job.cls] ??= { sent: 0, serverErrors: 0, envelopeMisses: 0, statuses: {} };
      const stats = result.byClass[job.cls];
      stats.sent++;
      stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
      const serverError = answer.status >= 500 || answer.status === 0;
      // A request with its own rule (`want`) counts as a miss when the rule fails.
      const wrong = job.want?.(answer);
      const miss = job.want ? wrong !== undefined : !isEnvelope(answer.text);
      if (serverError) {
        result.serverErrors++;
        stats.serverErrors++;
      }
      if (miss) {
        result.envelopeMisses++;
        stats.envelopeMisses++;
      }
      if (serverError || miss)
        result.failures.push({
          cls: job.cls,
          method: job.method,
          path: job.path.slice(0, 120),
          status: answer.status,
          ...(wrong ? { wrong } : {}),
          body: answer.text.slice(0, 160),
        });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const arg = (name) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const base = arg("--base") ?? process.env.GATEWAY_URL ?? "http://127.0.0.1:8080";
  const mailpit = process.env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const only = arg("--only") ? new RegExp(arg("--only")) : undefined;
  const started = Date.now();
  const cookie = await signedInCookie(base, mailpit);
  if (args.includes("--print-fixtures")) {
    // For scripts/security/schemathesis.sh: a fresh user's access token, a craft of theirs and its
    // first step, and a second craft for DELETE (shell assignments).
    const craft = await fixtures(base, cookie);
    const spare = await fixtures(base, cookie);
    console.log(`SCHEMATHESIS_TOKEN=${/crafter_at=([^;]+)/.exec(cookie)?.[1] ?? ""}`);
    console.log(`SCHEMATHESIS_CRAFT_ID=${craft.id}`);
    console.log(`SCHEMATHESIS_STEP_NAME=${craft.stepName}`);
    console.log(`SCHEMATHESIS_DELETE_ID=${spare.id}`);
    process.exit(0);
  }
  const result = await sweep({ base, cookie, only });
  for (const failure of result.failures.slice(0, 40)) console.log("FAIL", JSON.stringify(failure));
  console.log("class".padEnd(22), "sent".padStart(6), "5xx".padStart(6), "no-envelope".padStart(12));
  for (const [cls, stats] of Object.entries(result.byClass)) {
    console.log(
      cls.padEnd(22),
      String(stats.sent).padStart(6),
      String(stats.serverErrors).padStart(6),
      String(stats.envelopeMisses).padStart(12),
      " ",
      Object.entries(stats.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(" "),
    );
  }
  console.log(
    `sweep: ${result.sent} requests sent, ${result.serverErrors} 5xx seen, ${result.envelopeMisses} envelope misses (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  process.exit(result.serverErrors || result.envelopeMisses ? 1 : 0);
}
