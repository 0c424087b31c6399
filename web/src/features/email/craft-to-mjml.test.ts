import { describe, expect, it } from "@jest/globals";
import { cleanBodyHtml, craftToMjml, finalDraft, splitDraft } from "./craft-to-mjml";

const DRAFT =
  "<p><strong>Subject:</strong> Spring is here</p><p><em>Preheader:</em> Our <b>new</b> range</p><hr><p>Hi there,</p><ul><li>One</li></ul>";

describe("pouring an email craft into a template", () => {
  it("takes the subject and preheader lines off the draft", () => {
    expect(splitDraft(DRAFT)).toEqual({
      subject: "Spring is here",
      preheader: "Our new range",
      body: "<p>Hi there,</p><ul><li>One</li></ul>",
    });
  });

  it("keeps a draft without those lines whole", () => {
    expect(splitDraft("<p>Just a body</p>")).toEqual({ subject: "", preheader: "", body: "<p>Just a body</p>" });
  });

  it("writes one-column MJML with the preview text, the body and the unsubscribe footer", () => {
    const poured = craftToMjml(DRAFT);
    expect(poured.subject).toBe("Spring is here");
    expect(poured.mjml).toContain("<mj-preview>Our new range</mj-preview>");
    expect(poured.mjml).toContain("<mj-text><p>Hi there,</p><ul><li>One</li></ul></mj-text>");
    expect(poured.mjml).toContain("{{unsubscribe_url}}");
  });

  it("drops scripts, handlers and javascript: links from the body", () => {
    expect(cleanBodyHtml('<p onclick="x()">a</p><script>alert(1)</script><a href="javascript:go()">b</a>')).toBe(
      '<p>a</p><a href="#">b</a>',
    );
  });
});

describe("the final draft of a craft", () => {
  it("is the last step's selected HTML result, else its latest", () => {
    const steps = [
      { results: [{ content: "<p>brief</p>", format: "html" }] },
      {
        results: [
          { content: "<p>one</p>", format: "html", selected: true },
          { content: "<p>two</p>", format: "html" },
        ],
      },
      { results: [{ content: "plain", format: "text" }] },
      {},
    ];
    expect(finalDraft(steps)).toBe("<p>one</p>");
    expect(
      finalDraft([
        steps[0]!,
        {
          results: [
            { content: "<p>a</p>", format: "html" },
            { content: "<p>b</p>", format: "html" },
          ],
        },
      ]),
    ).toBe("<p>b</p>");
  });

  it("is null before any HTML result exists", () => {
    expect(finalDraft([{ results: [{ content: "x", format: "text" }] }, {}])).toBeNull();
  });
});
