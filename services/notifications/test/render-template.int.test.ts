import { createLogger } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { NotificationsDeps } from "../src/deps";
import { createStores } from "../src/store";
import { createTemplate, renderTemplate } from "../src/usecases/templates";

// renderTemplate, the in-process function campaigns and automations call, on the real database.
let db: Awaited<ReturnType<typeof throwawayDatabase>>;
let deps: Pick<NotificationsDeps, "stores" | "logger" | "now" | "publicOrigin">;
const caller = {
  userId: "u-render",
  role: "user",
  token: undefined,
  signal: new AbortController().signal,
  service: undefined,
};

beforeAll(async () => {
  db = await throwawayDatabase("render_template");
  deps = {
    stores: await createStores(db.connection),
    publicOrigin: "http://localhost:8080",
    logger: createLogger("notifications-test", "silent"),
    now: () => new Date(),
  };
});
afterAll(async () => db.drop());

describe("renderTemplate", () => {
  it("fills a user's template per recipient, in subject, HTML and text, with fallbacks", async () => {
    const saved = await createTemplate(deps, caller, {
      projectId: "p",
      kind: "email",
      name: "Hello",
      subject: 'Hi {{contact.firstName | "friend"}}',
      mjml: '<mjml><mj-body><mj-section><mj-column><mj-text>Dear {{contact.firstName | "there"}} at {{business.name}}</mj-text><mj-button href="{{unsubscribe_url}}">Leave</mj-button></mj-column></mj-section></mj-body></mjml>',
    });
    const filled = await renderTemplate(deps, {
      userId: caller.userId,
      templateId: saved.id,
      values: { "contact.firstName": "Ada", "business.name": "Bakery", unsubscribe_url: "https://x.test/u?a=1&b=2" },
    });
    expect(filled.subject).toBe("Hi Ada");
    expect(filled.html).toContain("Dear Ada at Bakery");
    expect(filled.html).toContain('href="https://x.test/u?a=1&amp;b=2"');
    expect(filled.text).toContain("Dear Ada at Bakery");

    const fallback = await renderTemplate(deps, { userId: caller.userId, templateId: saved.id, values: {} });
    expect(fallback.subject).toBe("Hi friend");
    expect(fallback.text).toContain("Dear there at");
  });

  it("renders a shipped template, and refuses another user's", async () => {
    const shipped = await renderTemplate(deps, { userId: "anyone", templateId: "predefined-newsletter", values: {} });
    expect(shipped.html).toContain("Hi there");
    const saved = await createTemplate(deps, caller, {
      projectId: "p",
      kind: "email",
      name: "Mine",
      subject: "",
      mjml: "<mjml></mjml>",
    });
    await expect(
      renderTemplate(deps, { userId: "someone-else", templateId: saved.id, values: {} }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
