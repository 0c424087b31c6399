import { craftToMjml, finalDraft } from "@crafter/email-language";
import { describe, expect, it } from "@jest/globals";
import { footerOf } from "../src/clients/email-ports";
import { MISSING_ADDRESS } from "../src/domain/campaign-rules";

describe("the footer's business", () => {
  it("is the business profile's name and postal address, its lines on one line", () => {
    expect(
      footerOf("Project", { name: "Crumb & Co.", fields: { address: " 12 Mill Lane\r\nBristol BS1 4DJ\n\n UK " } }),
    ).toEqual({ name: "Crumb & Co.", address: "12 Mill Lane, Bristol BS1 4DJ, UK" });
  });

  it("has no address (never the website) when the profile has none, and the project's title without a name", () => {
    expect(footerOf("Crumb", { name: "", fields: {} })).toEqual({ name: "Crumb", address: "" });
    expect(footerOf("Crumb", { name: "C", fields: { address: 12 } })).toEqual({ name: "C", address: "" });
    expect(MISSING_ADDRESS).toMatch(/postal address to the business profile/);
  });
});

describe("an email craft as a campaign's content", () => {
  const draft =
    "<p><strong>Subject:</strong> Bake with us</p><p><em>Preheader:</em> Four Saturdays</p><hr><p>Hi there,</p><p>Our classes start in May.</p>";

  it("is the final draft of the last step with HTML, the selected result first", () => {
    const steps = [
      { results: [{ content: "list", format: "list" }] },
      {
        results: [
          { content: "<p>old</p>", format: "html" },
          { content: draft, format: "html", selected: true },
          { content: "<p>newer</p>", format: "html" },
        ],
      },
      { results: [] },
    ];
    expect(finalDraft(steps)).toBe(draft);
    expect(finalDraft([{ results: [{ content: " ", format: "html" }] }])).toBeNull();
  });

  it("leaves the designer's footer out for a campaign (the sender's footer is added to every email)", () => {
    const campaign = craftToMjml(draft, { footer: false });
    expect(campaign).toMatchObject({ subject: "Bake with us", preheader: "Four Saturdays" });
    expect(campaign.mjml).toContain("Our classes start in May.");
    expect(campaign.mjml).not.toContain("Subject:");
    expect(campaign.mjml).not.toContain("{{unsubscribe_url}}");
    expect(craftToMjml(draft).mjml).toContain("{{business.address}}");
  });
});
