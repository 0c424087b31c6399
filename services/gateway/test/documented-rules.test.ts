import { isValidUrl } from "@crafter/validation";
import { describe, expect, it } from "@jest/globals";
import { z } from "zod";
import { fail, parseBody } from "../src/http/envelope";
import { openApiDocument } from "../src/http/openapi";
import { websiteAddress } from "../src/http/schemas";
import { senderFromAddress, senderReplyTo, sendingDomain, webhookUrl } from "../src/http/validators";
import { accountRoutes } from "../src/routes/account.routes";
import type { RouteDeps } from "../src/routes/deps";
import { leadsRoutes } from "../src/routes/leads.routes";
import { accountInfoBody } from "../src/routes/settings.routes";

const route = accountRoutes({} as RouteDeps).find(
  (r) => r.method === "put" && r.path === "/api/userSettings/settings",
)!;
const parse = (body: unknown) => route.body!.safeParse(body);
const fieldsOf = (body: unknown) => {
  try {
    parseBody(route.body!, body);
    return null;
  } catch (error) {
    return (error as { fields?: Record<string, string> }).fields;
  }
};

describe("PUT /api/userSettings/settings body", () => {
  it("takes known settings, empty values (ignored by the merge) and the nested { settings } form", () => {
    expect(parse({ theme: "dark", viewMode: "", fastGeneration: null, customerProfileColumns: [] }).success).toBe(true);
    expect(parse({ settings: { theme: "light", contentCalendarColumns: ["id", "date_time"] } }).success).toBe(true);
    expect(parse({}).success).toBe(true);
  });

  it("refuses what the account service refuses, per field, as it answers", () => {
    expect(fieldsOf({ layout: { a: 1 } })).toEqual({ layout: "Unknown setting" });
    expect(fieldsOf({ settings: { settings: {} } })).toEqual({ "settings.settings": "Unknown setting" });
    expect(fieldsOf({ theme: "blue" })).toEqual({ theme: expect.stringContaining("light, dark") });
    expect(fieldsOf({ fastGeneration: "yes" })).not.toBeNull();
    expect(fieldsOf({ viewMode: "two words" })).not.toBeNull();
    expect(fieldsOf({ customerProfileColumns: Array.from({ length: 51 }, (_, i) => `c${i}`) })).not.toBeNull();
  });

  it("is documented as exactly those keys", () => {
    const document = openApiDocument([route], "http://x.test") as unknown as {
      paths: Record<string, { put: { requestBody: { content: Record<string, { schema: Record<string, any> }> } } }>;
    };
    const schema = document.paths["/api/userSettings/settings"]!.put.requestBody.content["application/json"]!.schema;
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["theme", "activeTemplateType", "settings"]));
  });
});

// Rules a service checks, declared on the route so the OpenAPI document states them (schemathesis'
// positive_data_acceptance sends what the document allows and expects it taken).
describe("account info body", () => {
  it("takes an empty or real name and an https or /media/ image, and refuses a blank name or another link", () => {
    const ok = (body: unknown) => accountInfoBody.safeParse(body).success;
    expect(ok({ displayName: "Ada Shop", image: "https://cdn.example.com/ü.png" })).toBe(true);
    expect(ok({ displayName: "", image: "/media/assets/a.png" })).toBe(true);
    expect(ok({ displayName: " \u3000 " })).toBe(false);
    expect(ok({ image: "javascript:alert(1)" })).toBe(false);
    expect(ok({ image: "http://example.com/a.png" })).toBe(false);
    expect(ok({ image: "https://10.0.0.999/a.png" })).toBe(false);
  });
});

describe("sender identity and sending domain rules", () => {
  it("take an email address or nothing as from address and reply-to", () => {
    expect(senderFromAddress.safeParse("Ada@Example.com").success).toBe(true);
    expect(senderReplyTo.safeParse("").success).toBe(true);
    expect(senderFromAddress.safeParse("not an address").success).toBe(false);
  });
  it("take a sending domain by notifications' rule", () => {
    const ok = (domain: string) => sendingDomain.safeParse(domain).success;
    expect(["example.com", "mail.Example.co.uk.", "a-1.b2"].map(ok)).toEqual([true, true, true]);
    expect(["localhost", "example.123", "-a.com", "a..com", " example.com"].map(ok)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("lead assistant body", () => {
  const body = leadsRoutes({ clients: { leads: {} } } as unknown as RouteDeps).find(
    (r) => r.method === "put" && r.path === "/api/leads/assistant",
  )!.body!;
  it("takes a tone of the service's list and a greeting that is not blank, as JavaScript trims it", () => {
    expect(body.safeParse({ greeting: "Hi!", tone: "concise" }).success).toBe(true);
    expect(body.safeParse({ greeting: "Hi!", tone: "grumpy" }).success).toBe(false);
    expect(body.safeParse({ greeting: "\ufeff\u3000" }).success).toBe(false);
  });
});

describe("website address", () => {
  it("admits only addresses the kit's URL rule takes, and a refusal is InvalidUrl when it is the only one", () => {
    const taken = [
      "example.com",
      "www.example.co.uk/about?x=1#top",
      "https://shop.example.com:65535/ü",
      "ftp://files.example.org",
    ];
    for (const url of taken)
      expect([url, websiteAddress.safeParse(url).success, isValidUrl(url, { allowSchemeless: true })]).toEqual([
        url,
        true,
        true,
      ]);
    for (const url of [
      "localhost",
      "example.c",
      "-a.com",
      "mailto:me@example.com",
      "https://me:pw@example.com",
      "example.123",
      "//example.com",
      " example.com",
    ])
      expect([url, websiteAddress.safeParse(url).success]).toEqual([url, false]);
    expect(() => parseBody(z.object({ websiteUrl: websiteAddress }), { websiteUrl: "localhost" })).toThrow(
      expect.objectContaining({ code: "InvalidUrl", fields: { websiteUrl: "Invalid URL" } }),
    );
  });
});

describe("errors", () => {
  it("give every 429 a Retry-After, a minute when the error names none", () => {
    const headers = new Map<string, string>();
    const res = {
      setHeader: (name: string, value: string) => headers.set(name, value),
      hasHeader: (name: string) => headers.has(name),
      status: () => ({ json: () => undefined }),
    } as unknown as Parameters<typeof fail>[0];
    fail(res, { code: "RATE_LIMITED", status: 429, message: "A link was sent a moment ago" });
    expect(headers.get("retry-after")).toBe("60");
  });
});

describe("a webhook endpoint's URL", () => {
  // The document's pattern and the URL parser agree: what the pattern takes, the parser takes.
  const pattern = new RegExp((z.toJSONSchema(webhookUrl) as { pattern: string }).pattern);
  it.each([
    ["https://hooks.example.com/crafter", true],
    ["http://203.0.113.5:8080/hook?x=1", true],
    ["http://localhost:3000", true],
    // A numeric last label reads as an IPv4 address, which it is not: the parser refuses it.
    ["https://a.b.7:65440?U", false],
    ["https://a.0x1f/", false],
    ["https://user:secret@example.com/", false],
    ["ftp://example.com/", false],
  ])("%s: %s", (url, taken) => {
    expect(webhookUrl.safeParse(url).success).toBe(taken);
    expect(pattern.test(url)).toBe(taken);
  });
});
