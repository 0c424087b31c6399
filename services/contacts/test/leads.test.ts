import { createHmac } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import {
  MAX_TRANSCRIPT_CHARS,
  offlineReply,
  relevantSentences,
  splitName,
  visitorDetails,
} from "../src/domain/assistant";
import { checkLeadForm, DEFAULT_LEAD_FORM, submissionFields } from "../src/domain/lead-form";
import {
  CONTACT_LINK_TTL_S,
  contactLinks,
  LEGACY_CONTACT_LINKS_UNTIL_S,
  signLinkToken,
  verifyLinkToken,
} from "../src/domain/links";
import { tagChanges } from "../src/usecases/contacts";

const SECRET = "s".repeat(40);

describe("contact link tokens", () => {
  const NOW = 1_800_000_000;
  const contact = {
    kind: "contact" as const,
    userId: "user0123456789abcdef0123",
    projectId: "proj0123456789abcdef0123",
    contactId: "cont0123456789abcdef0123",
  };
  /** A token of the older readable form, as it was signed. */
  const legacy = (data: object, secret = SECRET) => {
    const body = Buffer.from(JSON.stringify(data)).toString("base64url");
    return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
  };

  it("round-trips both kinds and refuses an altered, cut or foreign token", () => {
    const token = signLinkToken(SECRET, contact, NOW);
    expect(verifyLinkToken(SECRET, token, NOW)).toEqual({
      ok: true,
      payload: { ...contact, exp: NOW + CONTACT_LINK_TTL_S },
    });
    expect(verifyLinkToken("t".repeat(40), token, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyLinkToken(SECRET, token.slice(0, -3), NOW)).toEqual({ ok: false, reason: "invalid" });
    // Every character of the ciphertext and its tag is covered by the tag.
    const parts = token.split(".");
    for (const index of [2, 3, 4]) {
      const part = parts[index]!;
      const flipped = `${part[0] === "A" ? "B" : "A"}${part.slice(1)}`;
      const altered = parts.map((p, i) => (i === index ? flipped : p)).join(".");
      expect(verifyLinkToken(SECRET, altered, NOW)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(verifyLinkToken(SECRET, "v2.l1.a.b.c", NOW).ok).toBe(false);
    expect(verifyLinkToken(SECRET, "abc.def", NOW).ok).toBe(false);
    expect(verifyLinkToken(SECRET, "x".repeat(700), NOW).ok).toBe(false);
    const confirm = signLinkToken(SECRET, { kind: "confirm", submissionId: "s1", exp: NOW + 10 }, NOW);
    expect(verifyLinkToken(SECRET, confirm, NOW)).toEqual({
      ok: true,
      payload: { kind: "confirm", submissionId: "s1", exp: NOW + 10 },
    });
  });

  it("names no user, project or contact to whoever decodes it", () => {
    const token = signLinkToken(SECRET, contact, NOW);
    const decoded = token
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join(" ");
    for (const id of [contact.userId, contact.projectId, contact.contactId, "user0123", "proj0123", "cont0123"]) {
      expect(token).not.toContain(id);
      expect(decoded).not.toContain(id);
    }
    expect(decoded).not.toMatch(/"[upc]":/);
    // Sealed with a fresh IV each time: two links of one contact do not even look alike.
    expect(signLinkToken(SECRET, contact, NOW)).not.toBe(token);
  });

  it("expires confirm and contact links", () => {
    const confirm = signLinkToken(SECRET, { kind: "confirm", submissionId: "s1", exp: 1000 }, NOW);
    expect(verifyLinkToken(SECRET, confirm, 999).ok).toBe(true);
    expect(verifyLinkToken(SECRET, confirm, 1001)).toEqual({ ok: false, reason: "expired" });
    const token = signLinkToken(SECRET, contact, NOW);
    expect(verifyLinkToken(SECRET, token, NOW + CONTACT_LINK_TTL_S).ok).toBe(true);
    expect(verifyLinkToken(SECRET, token, NOW + CONTACT_LINK_TTL_S + 1)).toEqual({ ok: false, reason: "expired" });
    const short = signLinkToken(SECRET, { ...contact, exp: NOW + 60 }, NOW);
    expect(verifyLinkToken(SECRET, short, NOW + 61)).toEqual({ ok: false, reason: "expired" });
  });

  it("still opens links of the older signed form until they expire", () => {
    const old = legacy({ k: "p", u: "u1", p: "p1", c: "c1" });
    expect(verifyLinkToken(SECRET, old, LEGACY_CONTACT_LINKS_UNTIL_S - 1)).toEqual({
      ok: true,
      payload: { kind: "contact", userId: "u1", projectId: "p1", contactId: "c1", exp: LEGACY_CONTACT_LINKS_UNTIL_S },
    });
    expect(verifyLinkToken(SECRET, old, LEGACY_CONTACT_LINKS_UNTIL_S + 1)).toEqual({ ok: false, reason: "expired" });
    expect(verifyLinkToken(SECRET, legacy({ k: "p", u: "u1", p: "p1", c: "c1" }, "t".repeat(40)), 0).ok).toBe(false);
    const oldConfirm = legacy({ k: "c", s: "s1", e: 1000 });
    expect(verifyLinkToken(SECRET, oldConfirm, 999).ok).toBe(true);
    expect(verifyLinkToken(SECRET, oldConfirm, 1001)).toEqual({ ok: false, reason: "expired" });
    // A forged `e` in an old contact link does not lengthen it: its signature no longer matches.
    const [body, sig] = old.split(".");
    const longer = Buffer.from(JSON.stringify({ k: "p", u: "u1", p: "p1", c: "c1", e: 9e9 })).toString("base64url");
    expect(verifyLinkToken(SECRET, `${longer}.${sig}`, 0).ok).toBe(false);
    expect(verifyLinkToken(SECRET, `${body}`, 0).ok).toBe(false);
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
