import { describe, expect, it } from "@jest/globals";
import {
  MAX_TRANSCRIPT_CHARS,
  offlineReply,
  relevantSentences,
  splitName,
  visitorDetails,
} from "../src/domain/assistant";
import { checkLeadForm, DEFAULT_LEAD_FORM, submissionFields } from "../src/domain/lead-form";
import { contactLinks, signLinkToken, verifyLinkToken } from "../src/domain/links";
import { tagChanges } from "../src/usecases/contacts";

const SECRET = "s".repeat(40);

describe("signed link tokens", () => {
  it("round-trips both kinds and refuses a forged, cut or foreign token", () => {
    const contact = { kind: "contact" as const, userId: "u1", projectId: "p1", contactId: "c1" };
    const token = signLinkToken(SECRET, contact);
    expect(verifyLinkToken(SECRET, token, 0)).toEqual({ ok: true, payload: contact });
    expect(verifyLinkToken("t".repeat(40), token, 0)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyLinkToken(SECRET, token.slice(0, -3), 0)).toEqual({ ok: false, reason: "invalid" });
    const [body, sig] = token.split(".");
    const other = Buffer.from(JSON.stringify({ k: "p", u: "u2", p: "p1", c: "c1" })).toString("base64url");
    expect(verifyLinkToken(SECRET, `${other}.${sig}`, 0).ok).toBe(false);
    expect(verifyLinkToken(SECRET, `${body}`, 0).ok).toBe(false);
    expect(verifyLinkToken(SECRET, "x".repeat(700), 0).ok).toBe(false);
  });

  it("expires confirm links and never contact links", () => {
    const confirm = signLinkToken(SECRET, { kind: "confirm", submissionId: "s1", exp: 1000 });
    expect(verifyLinkToken(SECRET, confirm, 999)).toEqual({
      ok: true,
      payload: { kind: "confirm", submissionId: "s1", exp: 1000 },
    });
    expect(verifyLinkToken(SECRET, confirm, 1001)).toEqual({ ok: false, reason: "expired" });
    const contact = signLinkToken(SECRET, { kind: "contact", userId: "u", projectId: "p", contactId: "c" });
    expect(verifyLinkToken(SECRET, contact, 4_000_000_000).ok).toBe(true);
  });

  it("builds the preference, unsubscribe and one-click URLs", () => {
    expect(contactLinks("https://app.example/", "a.b")).toEqual({
      unsubscribeUrl: "https://app.example/preferences/a.b",
      preferencesUrl: "https://app.example/preferences/a.b",
      oneClickUrl: "https://app.example/api/public/unsubscribe/a.b",
    });
  });
});

describe("lead form", () => {
  const custom = [{ key: "plan", label: "Plan", kind: "select" as const, options: ["a", "b"] }];

  it("keeps email present, first when missing, and required; refuses unknown keys", () => {
    const checked = checkLeadForm(
      {
        ...DEFAULT_LEAD_FORM,
        fields: [{ key: "custom.plan", label: "Plan", type: "select", required: false, options: [] }],
      },
      custom,
    );
    expect(checked.ok && checked.value.fields.map((f) => [f.key, f.required])).toEqual([
      ["email", true],
      ["custom.plan", false],
    ]);
    const bad = checkLeadForm(
      {
        ...DEFAULT_LEAD_FORM,
        title: " ",
        fields: [{ key: "custom.nope", label: "X", type: "text", required: false, options: [] }],
      },
      custom,
    );
    expect(bad.ok ? {} : bad.fields).toEqual({
      title: "The form needs a title",
      "fields.0.key": "Unknown field custom.nope",
    });
  });

  it("turns values into contact fields, with errors named values.<key>", () => {
    const fields = [
      { key: "email", label: "Email", type: "email", required: true, options: [] },
      { key: "firstName", label: "First name", type: "text", required: true, options: [] },
      { key: "custom.plan", label: "Plan", type: "select", required: false, options: [] },
      { key: "custom.news", label: "News", type: "checkbox", required: false, options: [] },
    ];
    const ok = submissionFields(fields, {
      email: " A@B.co ",
      firstName: "Ada",
      "custom.plan": "a",
      "custom.news": true,
    });
    expect(ok).toEqual({
      ok: true,
      value: { email: "A@B.co", firstName: "Ada", custom: { plan: "a", news: true } },
      values: { email: "a@b.co", firstName: "Ada", "custom.plan": "a", "custom.news": true },
    });
    const bad = submissionFields(fields, { firstName: "", extra: "x", "custom.news": "yes" });
    expect(bad.ok ? {} : bad.fields).toEqual({
      "values.extra": "This form has no such field",
      "values.email": "Email is required",
      "values.firstName": "First name is required",
      "values.custom.news": "News must be true or false",
    });
  });
});

describe("lead assistant", () => {
  it("finds a visitor's name and email across messages", () => {
    expect(visitorDetails("I'm Jane Doe, jane@example.com")).toEqual({ name: "Jane Doe", email: "jane@example.com" });
    expect(visitorDetails("Jane Doe <JANE@example.com>")).toEqual({ name: "Jane Doe", email: "jane@example.com" });
    expect(visitorDetails("my name is Ana")).toEqual({ name: "Ana" });
    expect(visitorDetails("ana@x.io", { name: "Ana" })).toEqual({ name: "Ana", email: "ana@x.io" });
    expect(visitorDetails("I'm interested in bread")).toEqual({});
    expect(splitName("Jane van Doe")).toEqual({ firstName: "Jane", lastName: "van Doe" });
  });

  it("answers only with the profile's sentences, and says so when it has none", () => {
    const knowledge = "Business: Crumb. We bake sourdough every morning. Open Monday to Saturday.\nProduct: Rye loaf.";
    expect(relevantSentences(knowledge, "When are you open?")).toEqual(["Open Monday to Saturday."]);
    const ctx = {
      businessName: "Crumb",
      knowledge,
      questions: ["What brings you here?"],
      replies: 0,
      details: {},
      capturedNow: false,
      captured: false,
    };
    expect(offlineReply("Do you bake sourdough?", ctx)).toBe(
      "From Crumb's profile: We bake sourdough every morning. What brings you here?",
    );
    expect(offlineReply("Do you deliver to Mars?", { ...ctx, replies: 1 })).toBe(
      "I can only answer from Crumb's profile, and it does not say that. Leave your name and email and the team will answer you personally.",
    );
    expect(
      offlineReply("I'm Jo, jo@x.io", { ...ctx, details: { name: "Jo", email: "jo@x.io" }, capturedNow: true }),
    ).toBe("Thank you, Jo! The Crumb team will get back to you at jo@x.io.");
    expect(MAX_TRANSCRIPT_CHARS).toBe(163_840);
  });
});

describe("ContactTagged", () => {
  it("names the tags added and removed, ignoring case changes", () => {
    expect(tagChanges(["VIP", "baker"], ["vip", "new"])).toEqual({ added: ["new"], removed: ["baker"] });
    expect(tagChanges(["a"], ["A"])).toEqual({ added: [], removed: [] });
  });
});
