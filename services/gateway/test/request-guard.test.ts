import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import pino from "pino";
import { z } from "zod";
import { onClientError } from "../src/http/client-errors";
import { csrfGuard } from "../src/http/csrf";
import { errorHandler } from "../src/http/envelope";
import { defineRoute, type RouteDef } from "../src/http/registry";
import { badTarget, requestGuard } from "../src/http/request-guard";

describe("badTarget", () => {
  it("refuses a control character in any path segment or query name or value, decoded, and nothing else", () => {
    for (const url of [
      "/api/workflowsV2/a%00b",
      "/api/contacts/a%01b",
      "/api/segments/%0A",
      "/api/x/%7F",
      "/api/x/%C2%85",
      "/api/workflowsV2?workflowName=%00",
      "/api/media/assets?profileIds=a&profileIds=%1F",
      "/api/x?%00=1",
      "/api/x?q=a\tb",
    ]) {
      expect([url, badTarget(url)]).toEqual([url, expect.stringContaining("control character")]);
    }
    expect(badTarget("/api/x/%zz")).toContain("malformed percent-escape");
    for (const url of [
      "/api/contacts/665f0c1e2a3b4c5d6e7f8091",
      "/api/x?q=caf%C3%A9+cr%C3%A8me&page=2",
      "/api/x?page=%zz",
      "/api/x?",
      "/unsubscribe/abc-_~.",
      "/api/x?q=%E2%80%8B",
    ]) {
      expect([url, badTarget(url)]).toEqual([url, undefined]);
    }
  });
});

describe("requestGuard", () => {
  const route = (method: RouteDef["method"], path: string, auth: RouteDef["auth"], crossOrigin = false) =>
    defineRoute({
      method,
      path,
      summary: path,
      tag: "test",
      auth,
      crossOrigin,
      response: z.string(),
      handler: async () => "ok",
    });
  const routes = [
    route("get", "/api/contacts", "session"),
    route("post", "/api/contacts", "session"),
    route("get", "/api/contacts/export", "session"),
    route("delete", "/api/contacts/{id}", "session"),
    route("post", "/api/public/forms/{formId}/submissions", "public", true),
    route("post", "/auth/signin", "public"),
  ];
  let base = "";
  let server: ReturnType<typeof createServer>;
  beforeAll(async () => {
    const app = express();
    const crossOrigin = (req: express.Request) => req.path.startsWith("/api/public/");
    app.use(requestGuard(routes, crossOrigin));
    app.use(csrfGuard(["http://app.test"]));
    app.all("/*all", (_req, res) => {
      res.json({ success: true, result: "reached", errorMessage: null, error: null });
    });
    app.use(errorHandler(pino({ level: "silent" })));
    server = createServer(app);
    server.on("clientError", onClientError);
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  /** One request through node:http (fetch refuses TRACE). */
  function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    return new Promise<{ status: number; allow?: string; text: string }>((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers }, (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, allow: res.headers.allow as string | undefined, text }),
        );
      });
      req.on("error", reject);
      req.end(body);
    });
  }
  const codeOf = (text: string) => (JSON.parse(text) as { error: { code: string } | null }).error?.code;

  it("answers 400 in the envelope for a NUL or other control character, on every path", async () => {
    for (const path of ["/api/contacts/a%00b", "/api/contacts?q=%00", "/a%0Db", "/rpc/x%00", "/auth/signin?x=%7f"]) {
      const answer = await send("GET", path);
      expect([path, answer.status, codeOf(answer.text)]).toEqual([path, 400, "CR_ERR_BAD_REQUEST"]);
    }
  });

  it("answers OPTIONS 204 with the path's methods, and leaves the CORS preflight to CORS", async () => {
    expect(await send("OPTIONS", "/api/contacts")).toMatchObject({ status: 204, allow: "GET, HEAD, POST, OPTIONS" });
    // `/api/contacts/export` is also `/api/contacts/{id}`: the concrete path's methods, as OpenAPI matches.
    expect(await send("OPTIONS", "/api/contacts/export")).toMatchObject({ allow: "GET, HEAD, OPTIONS" });
    expect(await send("OPTIONS", "/api/contacts/c1")).toMatchObject({ allow: "DELETE, OPTIONS" });
    expect(await send("OPTIONS", "/")).toMatchObject({ status: 204, allow: "GET, HEAD, OPTIONS" });
    expect(await send("OPTIONS", "/rpc/crafter.x.v1.X/Y")).toMatchObject({ status: 204, allow: "POST, OPTIONS" });
    const preflight = await send("OPTIONS", "/api/public/forms/f1/submissions", {
      origin: "https://site.test",
      "access-control-request-method": "POST",
    });
    expect(preflight).toMatchObject({ status: 200, allow: "POST, OPTIONS" });
    expect(preflight.text).toContain("reached");
    expect((await send("OPTIONS", "/api/nothing")).status).toBe(404);
  });

  it("answers TRACE, unknown methods and a method the path lacks 405 with Allow, in the envelope", async () => {
    for (const [method, path, allow] of [
      ["TRACE", "/api/contacts", "GET, HEAD, POST, OPTIONS"],
      ["PROPFIND", "/", "GET, HEAD, OPTIONS"],
      ["TRACE", "/api/nothing", "GET, HEAD, OPTIONS"],
      ["PUT", "/api/contacts", "GET, HEAD, POST, OPTIONS"],
      ["GET", "/auth/signin", "POST, OPTIONS"],
      ["DELETE", "/api/contacts/export", "GET, HEAD, OPTIONS"],
    ] as const) {
      const answer = await send(method, path);
      expect([method, path, answer.status, answer.allow, codeOf(answer.text)]).toEqual([
        method,
        path,
        405,
        allow,
        "METHOD_NOT_ALLOWED",
      ]);
    }
    // A method Node's parser does not know never reaches Express: the client error handler answers.
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(base).port), "127.0.0.1", () =>
        socket.write("FOO / HTTP/1.1\r\nHost: x\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("close", () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 405 /);
    expect(raw).toContain("Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(codeOf(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toBe("METHOD_NOT_ALLOWED");
  });

  it("answers 401 to a session route without credentials before the CSRF check, and 403 with a cookie", async () => {
    const json = { "content-type": "application/json" };
    const anonymous = await send("POST", "/api/contacts", json, "{}");
    expect([anonymous.status, codeOf(anonymous.text)]).toEqual([401, "UNAUTHENTICATED"]);
    expect((await send("DELETE", "/api/contacts/c1", { "content-type": "text/plain" })).status).toBe(401);
    const withCookie = await send("POST", "/api/contacts", { ...json, cookie: "crafter_at=x" }, "{}");
    expect([withCookie.status, codeOf(withCookie.text)]).toEqual([403, "FORBIDDEN"]);
    // A public route is still the CSRF check's.
    expect((await send("POST", "/auth/signin", json, "{}")).status).toBe(403);
    const bearer = await send("POST", "/api/contacts", { ...json, authorization: "Bearer t" }, "{}");
    expect(bearer.text).toContain("reached");
  });
});
