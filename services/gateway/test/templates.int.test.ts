import { type GatewaySession, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// The email template routes through the gateway and the notifications service of a running test
// stack, on the real database: shipped templates, a user's own ones, the server-side MJML render.
jest.setTimeout(60_000);

let session: GatewaySession;
let other: GatewaySession;

beforeAll(async () => {
  [{ session }, { session: other }] = await Promise.all([verifiedSession("tpl"), verifiedSession("tpl-other")]);
});

describe("email templates", () => {
  it("lists the predefined emails and social posts, rendered to HTML", async () => {
    const emails = await session.get("/api/email/templates?kind=email&scope=predefined");
    expect(emails.status).toBe(200);
    const names = emails.body.result.result.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["Newsletter", "Promotion", "Welcome", "Announcement"]));
    expect(emails.body.result.result[0].html).toContain("<!doctype html>");
    expect(emails.body.result.meta).toMatchObject({ currentPage: 1, totalPages: 1 });
    const social = await session.get("/api/email/templates?kind=social&scope=predefined&pageSize=2");
    expect(social.body.result.result).toHaveLength(2);
    expect(social.body.result.meta).toMatchObject({ count: 3, totalPages: 2 });
  });

  it("hides section templates while email_designer_section_template is off", async () => {
    const sections = await session.get("/api/email/templates?kind=email&scope=section");
    expect(sections.status).toBe(200);
    expect(sections.body.result).toEqual({ result: [], meta: { count: 0, currentPage: 1, totalPages: 1 } });
  });

  it("saves, changes and deletes a user's own template, which no one else sees", async () => {
    const base = await session.get("/api/email/templates/predefined-welcome");
    expect(base.status).toBe(200);
    const created = await session.post("/api/email/templates", {
      kind: "email",
      name: "My welcome",
      mjml: base.body.result.mjml,
      subject: "Hello {{contact.firstName}}",
    });
    expect(created.status).toBe(201);
    const id = created.body.result.id as string;
    expect(created.body.result).toMatchObject({ scope: "user", name: "My welcome", kind: "email" });

    const mine = await session.get("/api/email/templates?kind=email&scope=user");
    expect(mine.body.result.result.map((t: { id: string }) => t.id)).toContain(id);

    const changed = await session.put(`/api/email/templates/${id}`, {
      mjml: "<mjml><mj-body><mj-section><mj-column><mj-text>Changed copy</mj-text></mj-column></mj-section></mj-body></mjml>",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.result.html).toContain("Changed copy");
    expect(changed.body.result.name).toBe("My welcome");

    expect((await other.get(`/api/email/templates/${id}`)).status).toBe(404);
    expect((await other.request("DELETE", `/api/email/templates/${id}`)).status).toBe(404);
    expect((await session.request("DELETE", `/api/email/templates/${id}`)).status).toBe(200);
    expect((await session.get(`/api/email/templates/${id}`)).body.error.code).toBe("NOT_FOUND");
    expect((await session.request("DELETE", "/api/email/templates/predefined-welcome")).status).toBe(404);
  });

  it("renders MJML on the server, smart values filled, and answers MJML errors with their line", async () => {
    const ok = await session.post("/api/email/render", {
      mjml: '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{contact.firstName | "there"}}</mj-text></mj-column></mj-section></mj-body></mjml>',
      values: { "contact.firstName": "" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.errors).toEqual([]);
    expect(ok.body.result.html).toContain("Hi there");

    const bad = await session.post("/api/email/render", {
      mjml: "<mjml>\n<mj-body>\n<mj-section>\n<mj-text>no column</mj-text>\n</mj-section>\n</mj-body>\n</mjml>",
    });
    expect(bad.status).toBe(200);
    expect(bad.body.result.errors[0]).toMatchObject({ line: 4 });
  });

  it("refuses bad input with the field named, never a 500", async () => {
    const noName = await session.post("/api/email/templates", { kind: "email", name: " ", mjml: "<mjml></mjml>" });
    expect(noName.status).toBe(400);
    const badKind = await session.get("/api/email/templates?kind=fax");
    expect(badKind.status).toBe(400);
    const huge = await session.post("/api/email/render", { mjml: "x".repeat(600 * 1024) });
    expect(huge.status).toBeLessThan(500);
  });
});
