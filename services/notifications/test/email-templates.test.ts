import { describe, expect, it } from "@jest/globals";
import { SHIPPED_TEMPLATES } from "../src/domain/template-catalogue";
import { renderMjml } from "../src/usecases/templates";

describe("shipped templates", () => {
  it("have unique ids and render with mjml without a validation error", async () => {
    expect(new Set(SHIPPED_TEMPLATES.map((t) => t.id)).size).toBe(SHIPPED_TEMPLATES.length);
    for (const template of SHIPPED_TEMPLATES) {
      const out = await renderMjml(template.mjml);
      expect({ id: template.id, errors: out.errors }).toEqual({ id: template.id, errors: [] });
      expect(out.html).toContain("<!doctype html>");
    }
  });

  it("carry the unsubscribe link and business address in every email", () => {
    for (const t of SHIPPED_TEMPLATES.filter((t) => t.kind === "email" && t.scope === "predefined")) {
      expect(t.mjml).toContain("{{unsubscribe_url}}");
      expect(t.mjml).toContain("{{business.address}}");
    }
  });
});

describe("renderMjml", () => {
  it("fills smart values, escaped, with fallbacks for missing ones", async () => {
    const mjml =
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{contact.firstName | "there"}} from {{business.name}}</mj-text></mj-column></mj-section></mj-body></mjml>';
    const named = await renderMjml(mjml, { "business.name": "Bread & <Co>" });
    expect(named.errors).toEqual([]);
    expect(named.html).toContain("Hi there from Bread &amp; &lt;Co&gt;");
    const unfilled = await renderMjml(mjml);
    expect(unfilled.html).toContain('{{contact.firstName | "there"}}');
  });

  it("answers validation errors with their line instead of failing", async () => {
    const out = await renderMjml(
      "<mjml>\n<mj-body>\n<mj-section>\n<mj-text>no column</mj-text>\n</mj-section>\n</mj-body>\n</mjml>",
    );
    expect(out.errors.length).toBeGreaterThan(0);
    expect(out.errors[0]?.line).toBe(4);
    expect(out.errors[0]?.message).toMatch(/mj-text/);
  });

  it("refuses a document over 512 KB as one error", async () => {
    const out = await renderMjml(`<mjml>${"x".repeat(600 * 1024)}</mjml>`);
    expect(out).toEqual({ html: "", errors: [{ line: 0, message: "The template is larger than 512 KB." }] });
  });

  it("survives input that is not MJML at all", async () => {
    const out = await renderMjml("<<<>>> not mjml");
    expect(Array.isArray(out.errors)).toBe(true);
  });
});
