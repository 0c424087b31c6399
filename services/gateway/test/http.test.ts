import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "@jest/globals";
import express from "express";
import pino from "pino";
import { z } from "zod";
import { containsNul, jsonDepth } from "../src/http/body";
import { errorHandler } from "../src/http/envelope";
import { canonicalJson } from "../src/http/idempotency";
import { openApiDocument } from "../src/http/openapi";
import { defineRoute, expressPath, type MountDeps, mountRoutes } from "../src/http/registry";
import { securityHeaders } from "../src/http/security";
import { SPA_PATH } from "../src/http/static";

describe("jsonDepth", () => {
  it("counts objects and arrays, without recursion, and stops past the limit", () => {
    expect(jsonDepth("text")).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonDepth(deep)).toBe(200_000);
    expect(jsonDepth(deep, 32)).toBe(33);
  });
});

describe("containsNul", () => {
  it("finds U+0000 in any string or key, however deep, and nothing else", () => {
    expect(containsNul({ a: ["ok", { b: "fine\u0001" }], n: 1, z: null })).toBe(false);
    expect(containsNul({ a: [{ b: "bad\u0000" }] })).toBe(true);
    expect(containsNul({ stages: [{ "\u0000": 1 }] })).toBe(true);
    expect(containsNul("\u0000")).toBe(true);
  });
});

describe("canonicalJson", () => {
  it("makes key order irrelevant but keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalJson({ a: { c: 3, d: 2 }, b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});

describe("expressPath", () => {
  it("turns OpenAPI templates into Express parameters below the mount", () => {
    expect(expressPath("/api/workflowsV2/{id}/{stepName}/editStep", "/api")).toBe(
      "/workflowsV2/:id/:stepName/editStep",
    );
    expect(expressPath("/api", "/api")).toBe("/");
  });
});

describe("mountRoutes", () => {
  // Public routes only: the session, Idempotency-Key and project resolution are never reached.
  const unused = {} as MountDeps;
  const route = (path: string, answer: string) =>
    defineRoute({
      method: "get",
      path,
      summary: answer,
      tag: "test",
      auth: "public",
      response: z.string(),
      handler: async () => answer,
    });

  async function answersOf(paths: string[]): Promise<Array<number | string>> {
    const app = express();
    const routes = [
      route("/api/user/account", "account"),
      route("/api/{slug}/profile", "any first segment"),
      route("/api/user/{id}", "user by id"),
      route("/api/contacts/export", "export"),
      route("/api", "root"),
    ];
    app.use("/api", mountRoutes("/api", routes, unused));
    app.use(errorHandler(pino({ level: "silent" })));
    const server = createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await Promise.all(
        paths.map(async (path) => {
          const response = await fetch(`http://127.0.0.1:${port}${path}`);
          const body = (await response.json()) as { result: string | null };
          return response.ok ? body.result! : response.status;
        }),
      );
    } finally {
      server.close();
    }
  }

  it("finds each route in its first segment's group, in registration order, as the router matches", async () => {
    expect(
      await answersOf([
        "/api/user/account",
        "/api/user/42",
        // A parameter first segment is in every group, in its place: before /api/user/{id}.
        "/api/user/profile",
        "/api/anything/profile",
        "/api/contacts/export",
        // Case-insensitive and a trailing slash, as Express matches.
        "/API/User/Account",
        "/api/contacts/export/",
        "/api",
        "/api/contacts/import",
        "/api/nothing",
      ]),
    ).toEqual([
      "account",
      "user by id",
      "any first segment",
      "any first segment",
      "export",
      "account",
      "export",
      "root",
      404,
      404,
    ]);
  });
});

describe("SPA_PATH", () => {
  it("matches the dashboard's routes and nothing file-like or deeper", () => {
    for (const path of [
      "/",
      "/signin",
      "/verify",
      "/app",
      "/app/crafts/BlogWriter",
      "/pricing",
      "/integrations/shopify",
      "/my-bucket",
      "/f/form_1",
      "/f/form_1/embed",
      "/preferences/abc.DEF-123_~",
      "/confirm",
      "/review/r6Y6YrX_knXxVyqkYcRtZq-0123456789abcdefghi",
    ]) {
      expect([path, SPA_PATH.test(path)]).toEqual([path, true]);
    }
    for (const path of [
      "/openapi.json",
      "/.env",
      "/a/b",
      "/signin/x",
      "/favicon.ico",
      "/integrations/other",
      "/f/a/b",
      "/preferences/a/b",
      "/review/a/b",
      "/review/a.b",
    ]) {
      expect([path, SPA_PATH.test(path)]).toEqual([path, false]);
    }
  });
});

describe("securityHeaders", () => {
  async function headersOf(forwardedProto?: string, path = "/") {
    const app = express();
    app.set("trust proxy", 1);
    app.use(securityHeaders());
    app.get(path, (_req, res) => {
      res.send("ok");
    });
    const server = createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        headers: forwardedProto ? { "x-forwarded-proto": forwardedProto } : {},
      });
      return response.headers;
    } finally {
      server.close();
    }
  }

  it("sends HSTS only behind TLS", async () => {
    expect((await headersOf()).get("strict-transport-security")).toBeNull();
    expect((await headersOf("https")).get("strict-transport-security")).toContain("max-age=31536000");
  });

  it("forbids framing and sniffing", async () => {
    const headers = await headersOf();
    expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets other sites frame only the lead form's embed page", async () => {
    const embed = await headersOf(undefined, "/f/form_1/embed");
    expect(embed.get("content-security-policy")).toContain("frame-ancestors *");
    expect(embed.get("content-security-policy")).toContain("script-src 'self'");
    expect(embed.get("x-frame-options")).toBeNull();
    const form = await headersOf(undefined, "/f/form_1");
    expect(form.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(form.get("x-frame-options")).toBe("DENY");
  });

  it("lets other sites load the open pixel and the widget scripts, with the other headers unchanged", async () => {
    const page = await headersOf(undefined, "/app/contacts");
    expect(page.get("cross-origin-resource-policy")).toBe("same-origin");
    const strictHeaders = Object.fromEntries(
      [...page].filter(([name]) => name.startsWith("x-") || name.endsWith("policy")),
    );
    for (const path of ["/t/o/dlv_1.Sig-_0.gif", "/widget/lead-form.js", "/widget/lead-assistant.js"]) {
      const headers = await headersOf(undefined, path);
      expect([path, headers.get("cross-origin-resource-policy")]).toEqual([path, "cross-origin"]);
      const others = Object.fromEntries([...headers].filter(([name]) => name in strictHeaders));
      expect([path, others]).toEqual([path, { ...strictHeaders, "cross-origin-resource-policy": "cross-origin" }]);
    }
    for (const path of ["/widget/lead-form.css", "/widget/x/lead-form.js", "/t/c/abc", "/media/a.png"]) {
      expect([path, (await headersOf(undefined, path)).get("cross-origin-resource-policy")]).toEqual([
        path,
        "same-origin",
      ]);
    }
  });
});

describe("openApiDocument", () => {
  const routes = [
    defineRoute({
      method: "get",
      path: "/api/things/{id}",
      summary: "A thing",
      tag: "test",
      auth: "session",
      params: z.object({ id: z.string().max(64) }),
      query: z.object({ tags: z.array(z.string()).optional() }),
      response: z.string(),
      handler: async () => "",
    }),
    defineRoute({
      method: "post",
      path: "/api/things/{id}/archive",
      summary: "Archive a thing",
      tag: "test",
      auth: "session",
      params: z.object({ id: z.string() }),
      response: z.string(),
      idempotent: true,
      handler: async () => "",
    }),
    defineRoute({
      method: "put",
      path: "/api/things/{id}",
      summary: "Change a thing",
      tag: "test",
      auth: "session",
      params: z.object({ id: z.string() }),
      body: z.object({
        name: z.string().regex(/\S/),
        values: z.record(z.string(), z.unknown()),
        html: z.string().max(1_000_000),
      }),
      response: z.string(),
      handler: async () => "",
    }),
  ];
  const document = openApiDocument(routes, "http://x.test") as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { schemas: Record<string, unknown> };
  };
  const op = (path: string, method: string) => document.paths[path]![method] as Record<string, any>;

  it("refuses control characters in every path and query string, as the request guard does", () => {
    const [id, tags] = op("/api/things/{id}", "get").parameters;
    expect(id.schema.pattern).toBe("^[^\\u0000-\\u001f\\u007f-\\u009f]*$");
    expect(tags.schema.items.pattern).toBe("^[^\\u0000-\\u001f\\u007f-\\u009f]*$");
    expect(new RegExp(id.schema.pattern, "u").test("a\u0085b")).toBe(false);
    expect(new RegExp(id.schema.pattern, "u").test("a b")).toBe(true);
  });

  it("refuses U+0000 in every JSON string and key, free values included, beside a route's own pattern", () => {
    const schema = op("/api/things/{id}", "put").requestBody.content["application/json"].schema;
    expect(schema.propertyNames.pattern).toBe("^[^\\u0000]*$");
    expect(schema.additionalProperties).toEqual({ $ref: "#/components/schemas/JsonValue" });
    expect(schema.properties.name.pattern).toBe("\\S");
    expect(schema.properties.name.allOf).toEqual([{ pattern: "^[^\\u0000]*$" }]);
    expect(schema.properties.values.additionalProperties).toEqual({ $ref: "#/components/schemas/JsonValue" });
    expect(JSON.stringify(document.components.schemas.JsonValue)).toContain("^[^\\\\u0000]*$");
  });

  it("says the rule as `not` on a long string, which a generator can still fill to its maximum length", () => {
    const html = op("/api/things/{id}", "put").requestBody.content["application/json"].schema.properties.html;
    expect(html.pattern).toBeUndefined();
    expect(html.not).toEqual({ pattern: "\\u0000" });
    expect(new RegExp(html.not.pattern, "u").test("<p>a\u0000</p>")).toBe(true);
    expect(new RegExp(html.not.pattern, "u").test("<p>a</p>")).toBe(false);
  });

  it("gives a write without a body the empty JSON object the CSRF rule needs, and marks idempotent routes", () => {
    const archive = op("/api/things/{id}/archive", "post");
    expect(archive.requestBody.required).toBe(true);
    expect(archive.requestBody.content["application/json"].schema.type).toBe("object");
    expect(archive["x-idempotent"]).toBe(true);
    expect(op("/api/things/{id}", "put")["x-idempotent"]).toBeUndefined();
    expect(op("/api/things/{id}", "get").requestBody).toBeUndefined();
  });
});
