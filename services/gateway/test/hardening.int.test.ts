import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { GatewaySession, gatewayUrl, linkFrom, repoRoot, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
// @ts-expect-error: a plain ES module script without types
import { isEnvelope, nested, send } from "../../../scripts/security/sweep.mjs";

// Hardening through the real stack: bad input never makes a
// 500 and is always in the envelope, GET editStep changes nothing, the security headers, real
// 404s, the OpenAPI document and reference, Idempotency-Key, and 503 while a service is down.

jest.setTimeout(120_000);

const base = gatewayUrl();
const session = new GatewaySession();
const other = new GatewaySession();
let craftId: string;
let firstStep: string;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}
const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Raw> =>
  send(base, {
    method,
    path,
    headers: { origin: base, cookie: [...session.cookies].map(([k, v]) => `${k}=${v}`).join("; "), ...headers },
    body,
  });
const json = { "content-type": "application/json" };
const codeOf = (answer: Raw) => (JSON.parse(answer.text) as { error: { code: string } }).error?.code;

async function signUp(client: GatewaySession, prefix: string) {
  const email = uniqueEmail(prefix);
  await client.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await client.post("/auth/verify", { token });
  expect((await client.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
}

beforeAll(async () => {
  await Promise.all([signUp(session, "hardening"), signUp(other, "hardening-other")]);
  expect(
    (
      await session.post("/api/projects/createProject", {
        name: "Crumb & Co. Bakery",
        description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
        keywords: ["sourdough"],
      })
    ).status,
  ).toBe(201);
  const craft = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
  expect(craft.status).toBe(201);
  craftId = craft.body.result.craftId;
  firstStep = craft.body.result.steps[0].name;
});

describe("bad input is a 4xx in the envelope, never a 500", () => {
  it("refuses charsets other than UTF-8 with 415", async () => {
    const answer = await raw(
      "PUT",
      "/api/userSettings/settings",
      { "content-type": "application/json; charset=latin1" },
      Buffer.from("{}"),
    );
    expect(answer.status).toBe(415);
    expect(isEnvelope(answer.text)).toBe(true);
  });

  it("refuses unknown Content-Encodings with 415 and a body that is not what it claims with 400", async () => {
    const foo = await raw("POST", "/api/workflowsV2", { ...json, "content-encoding": "foo" }, Buffer.from("{}"));
    expect([foo.status, codeOf(foo)]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const fakeGzip = await raw(
      "POST",
      "/auth/signin",
      { ...json, "content-encoding": "gzip" },
      Buffer.from('{"email":"a"}'),
    );
    expect([fakeGzip.status, codeOf(fakeGzip)]).toEqual([400, "CR_ERR_BAD_REQUEST"]);
    // A real gzip body is read.
    const gzip = await raw(
      "PUT",
      "/api/userSettings/settings",
      { ...json, "content-encoding": "gzip" },
      gzipSync(Buffer.from(JSON.stringify({ theme: "dark" }))),
    );
    expect(gzip.status).toBe(200);
    // A gzip bomb stops at the body limit.
    const bomb = await raw(
      "PUT",
      "/api/userSettings/settings",
      { ...json, "content-encoding": "gzip" },
      gzipSync(Buffer.from(JSON.stringify({ theme: "a".repeat(3_000_000) }))),
    );
    expect(bomb.status).toBe(413);
  });

  it.each(["%", "%zz", "%E0%A4%A"])("answers the malformed escape %s in a path parameter with 400", async (bad) => {
    for (const [method, path] of [
      ["GET", `/api/workflowsV2/${bad}`],
      ["GET", `/api/workflowsV2/${craftId}/${bad}/editStep`],
      ["GET", `/api/projects/check-list/${bad}`],
      ["PUT", `/api/workflowsV2/${bad}/step/complete`],
    ] as const) {
      const answer = await raw(
        method,
        path,
        method === "GET" ? {} : json,
        method === "GET" ? undefined : Buffer.from("{}"),
      );
      expect([method, path, answer.status]).toEqual([method, path, 400]);
      expect(isEnvelope(answer.text)).toBe(true);
    }
  });

  it("answers bad list queries with 400", async () => {
    for (const query of [
      "page=99999999999",
      "page=0",
      "page=abc",
      "pageSize=101",
      "favorites=maybe",
      "page=1&page=2",
    ]) {
      const answer = await session.get(`/api/workflowsV2?${query}`);
      expect([query, answer.status, answer.body.error?.code]).toEqual([query, 400, "CR_ERR_BAD_REQUEST"]);
    }
    expect((await session.get("/api/workflowsV2?page=2&pageSize=5&favorites=true")).status).toBe(200);
  });

  it("answers 1 MB names with 400 and bodies over 1 MiB with 413", async () => {
    const big = "a".repeat(1_000_000);
    const tooLong = [
      await session.post("/api/workflowsV2", { workflowName: big }),
      await session.post("/api/workflowsV2", { workflowName: "BlogWriter", craftName: big }),
      await session.put(`/api/workflowsV2/${craftId}/step/complete`, { stepName: big, values: {} }),
      await session.put(`/api/workflowsV2/${craftId}/name`, { name: big }),
    ];
    for (const answer of tooLong) expect([answer.status, answer.body.error.code]).toEqual([400, "CR_ERR_BAD_REQUEST"]);
    const huge = await session.put(`/api/workflowsV2/${craftId}`, {
      stepName: firstStep,
      values: { text: "a".repeat(1_100_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.success).toBe(false);
  });

  it("refuses JSON nested deeper than 32 levels in values, params, data and settings", async () => {
    const deep = nested(5000);
    const answers = [
      await session.request("PUT", `/api/workflowsV2/${craftId}`, `{"stepName":"${firstStep}","values":{"a":${deep}}}`),
      await session.request(
        "POST",
        `/api/workflowsV2/${craftId}/${firstStep}/TextGenerator`,
        `{"params":{"a":${deep}}}`,
      ),
      await session.request(
        "PUT",
        `/api/workflowsV2/${craftId}/${firstStep}/saveOrUpdateActionResult`,
        `{"resultId":"x","data":{"a":${deep}}}`,
      ),
      await session.request("PUT", "/api/userSettings/settings", `{"theme":${deep}}`),
      await session.request("PUT", "/api/userSettings/settings", `{"theme":${nested(40)}}`),
    ];
    for (const answer of answers) expect([answer.status, answer.body.error.code]).toEqual([400, "CR_ERR_BAD_REQUEST"]);
    // 31 levels pass the depth rule and reach the account service, which judges the setting itself.
    const shallow = await session.request("PUT", "/api/userSettings/settings", `{"layout":${nested(30)}}`);
    expect(shallow.body.error.fields).toEqual({ layout: "Unknown setting" });
  });

  it("answers unknown /api and /auth paths with a 404 envelope, with or without a session", async () => {
    for (const client of [session, new GatewaySession()]) {
      for (const path of ["/api/no-such-thing", "/auth/no-such-thing", "/api/workflowsV2/a/b/c/d"]) {
        const answer = await client.get(path);
        expect([path, answer.status, answer.body.error.code]).toEqual([path, 404, "NOT_FOUND"]);
      }
    }
  });
});

describe("GET never changes state", () => {
  it("GET editStep reads the craft; POST editStep reopens the step", async () => {
    const topic = { topic: "Sourdough at home", keywords: "sourdough starter" };
    const done = await session.put(`/api/workflowsV2/${craftId}/step/complete`, { stepName: firstStep, values: topic });
    expect(done.status).toBe(200);
    const moved = done.body.result.craft.currentStep;
    expect(moved).not.toBe(firstStep);

    const read = await session.get(`/api/workflowsV2/${craftId}/${firstStep}/editStep`);
    expect(read.status).toBe(200);
    expect(read.body.result.currentStep).toBe(moved);
    expect((await session.get(`/api/workflowsV2/${craftId}`)).body.result.currentStep).toBe(moved);
    expect((await session.get(`/api/workflowsV2/${craftId}/no-such-step/editStep`)).status).toBe(404);

    const edited = await session.post(`/api/workflowsV2/${craftId}/${firstStep}/editStep`, {});
    expect(edited.status).toBe(200);
    expect(edited.body.result.currentStep).toBe(firstStep);
    // A cross-site form cannot do it: no Origin → 403.
    const crossSite = await raw(
      "POST",
      `/api/workflowsV2/${craftId}/${firstStep}/editStep`,
      { ...json, origin: "https://evil.example" },
      Buffer.from("{}"),
    );
    expect(crossSite.status).toBe(403);
  });
});

describe("security headers and real 404s", () => {
  it("sends CSP with frame-ancestors 'none', nosniff, X-Frame-Options and Referrer-Policy, and no HSTS over http", async () => {
    for (const path of ["/", "/app/crafts", "/api/user/account", "/auth/check"]) {
      const response = await fetch(`${base}${path}`, {
        headers: { cookie: `crafter_at=${session.cookies.get("crafter_at")}` },
      });
      const csp = response.headers.get("content-security-policy") ?? "";
      expect([path, csp]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
      expect(csp).toContain("script-src 'self'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("serves the dashboard only on its own paths", async () => {
    for (const path of ["/", "/signin", "/signup", "/verify", "/app", "/app/crafts/BlogWriter", "/pricing", "/FAQ"]) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status, response.headers.get("content-type")]).toEqual([
        path,
        200,
        expect.stringContaining("text/html"),
      ]);
    }
    for (const path of ["/openapi.json", "/.env", "/wp-admin/setup.php", "/a/b", "/signin/x"]) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.text()).not.toContain('<div id="root">');
    }
  });
});

describe("OpenAPI document and reference", () => {
  it("documents every route with the envelope and its error codes", async () => {
    const response = await fetch(`${base}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
      >;
    };
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        "POST /auth/signup",
        "POST /auth/signin",
        "GET /auth/check",
        "POST /auth/token/refresh",
        "GET /api/app/initial",
        "PUT /api/userSettings/settings",
        "POST /api/projects/createProject",
        "GET /api/workflowsV2",
        "GET /api/workflowsV2/{id}/{stepName}/editStep",
        "POST /api/workflowsV2/{id}/{stepName}/editStep",
        "POST /api/workflowsV2/{id}/{stepName}/{actionType}",
        "POST /api/assistant/chat",
      ]),
    );
    expect(operations.length).toBeGreaterThanOrEqual(33);
    const complete = document.paths["/api/workflowsV2/{id}/step/complete"]!.put!;
    expect(Object.keys(complete.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "402", "404", "409", "413", "415", "422", "503"]),
    );
    expect(JSON.stringify(complete.responses["402"])).toContain("NEED_SUBSCRIPTION");
    expect(JSON.stringify(document)).toContain("errorMessage");
  });

  it("serves a rendered reference from our own origin", async () => {
    const page = await fetch(`${base}/api/reference`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-url="/api/openapi.json"');
    expect(html).not.toMatch(/src="https?:/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const bundle = await fetch(`${base}/api/reference/standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer for the same key and body, refuses another body, and is per user", async () => {
    const key = `key-${Date.now()}`;
    const body = { workflowName: "BlogWriter", craftName: "Idempotent craft" };
    const first = await session.request("POST", "/api/workflowsV2", body, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const again = await session.request("POST", "/api/workflowsV2", body, { "idempotency-key": key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.result.craftId).toBe(first.body.result.craftId);
    const named = (await session.get("/api/workflowsV2?pageSize=100")).body.result.crafts.filter(
      (craft: { craftName: string }) => craft.craftName === "Idempotent craft",
    );
    expect(named).toHaveLength(1);

    const changed = await session.request(
      "POST",
      "/api/workflowsV2",
      { ...body, craftName: "Other" },
      { "idempotency-key": key },
    );
    expect([changed.status, changed.body.error.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);

    const otherUser = await other.request("POST", "/api/workflowsV2", body, { "idempotency-key": key });
    expect(otherUser.status).toBe(201);
    expect(otherUser.body.result.craftId).not.toBe(first.body.result.craftId);

    const bad = await session.request("POST", "/api/workflowsV2", body, { "idempotency-key": "a".repeat(300) });
    expect(bad.status).toBe(400);
  });

  it("frees the key when the request failed, so a corrected retry runs", async () => {
    const key = `fail-${Date.now()}`;
    const missing = await session.request(
      "POST",
      "/api/workflowsV2/000000000000000000000000/cloneWorkflow",
      {},
      { "idempotency-key": key },
    );
    expect(missing.status).toBe(404);
    const retry = await session.request(
      "POST",
      `/api/workflowsV2/${craftId}/cloneWorkflow`,
      {},
      { "idempotency-key": key },
    );
    expect(retry.status).toBe(201);
  });
});

describe("a server that is down", () => {
  const stack = (...args: string[]) =>
    execFileSync("node", ["scripts/stack.mjs", ...args, "--profile", "test"], {
      cwd: repoRoot,
      stdio: "pipe",
      env: process.env,
    });

  it("answers 503 with Retry-After in the envelope, and works again once it is back", async () => {
    stack("down", "projects");
    try {
      const answer = await session.get("/api/projects");
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ success: false, result: null, error: { code: "UNAVAILABLE" } });
      expect((await session.get("/api/app/initial")).status).toBe(503);
    } finally {
      stack("up");
    }
    expect((await session.get("/api/projects")).status).toBe(200);
  });
});
