import { describe, expect, it } from "@jest/globals";
import {
  absoluteLogoUrl,
  cleanDisplayName,
  describeExpiry,
  formatUtc,
  RESET_SUBJECT,
  renderConsentEmail,
  renderEmailChangeEmail,
  renderEmailChangeNotice,
  renderInviteEmail,
  renderPasswordResetEmail,
  renderVerificationEmail,
  tokenLink,
  VERIFY_SUBJECT,
} from "../src/domain/templates";

const now = new Date("2025-11-24T10:00:00Z");
const inOneDay = new Date("2025-11-25T10:00:00Z");

describe("email helpers", () => {
  it("builds token links on the deployment's origin, encoding the token", () => {
    expect(tokenLink("http://localhost:8080", "/verify", "abc")).toBe("http://localhost:8080/verify?token=abc");
    expect(tokenLink("https://crafter.example/", "/reset-password", "a+b/c=")).toBe(
      "https://crafter.example/reset-password?token=a%2Bb%2Fc%3D",
    );
  });

  it("describes expiry relatively and in UTC", () => {
    expect(formatUtc(inOneDay)).toBe("Tue, 25 Nov 2025 10:00 UTC");
    expect(describeExpiry(inOneDay, now)).toBe("in 24 hours (Tue, 25 Nov 2025 10:00 UTC)");
    expect(describeExpiry(new Date("2025-11-24T11:00:00Z"), now)).toBe("in 60 minutes (Mon, 24 Nov 2025 11:00 UTC)");
    expect(describeExpiry(new Date("2025-11-24T10:01:00Z"), now)).toMatch(/^in 1 minute \(/);
    expect(describeExpiry(new Date("2025-11-27T10:00:00Z"), now)).toMatch(/^in 3 days \(/);
    expect(describeExpiry(null, now)).toBe("soon");
    expect(describeExpiry(new Date("invalid"), now)).toBe("soon");
  });

  it("keeps display names to one clean line", () => {
    expect(cleanDisplayName("  Ann\r\nBcc: x@y.z\t ")).toBe("Ann Bcc: x@y.z");
    expect(cleanDisplayName(undefined)).toBe("");
    expect(cleanDisplayName("x".repeat(100))).toHaveLength(80);
  });
});

describe("verification email", () => {
  const link = "http://localhost:8080/verify?token=tok123";

  it("has the exact subject, the link and the expiry in text and HTML", () => {
    const email = renderVerificationEmail({ displayName: "Ann", link, expiresAt: inOneDay, now });
    expect(email.subject).toBe(VERIFY_SUBJECT);
    expect(email.subject).toBe("Verify your email for Crafter");
    expect(email.text).toContain("Hi Ann,");
    expect(email.text).toContain(link);
    expect(email.text).toContain("This link expires in 24 hours (Tue, 25 Nov 2025 10:00 UTC).");
    expect(email.html).toContain(`href="${link}"`);
    expect(email.html).toContain("expires in 24 hours");
    expect(email.html).toMatch(/^<!doctype html>/);
  });

  it("escapes a hostile display name in the HTML body", () => {
    const email = renderVerificationEmail({
      displayName: `<script>alert("x")</script><a href="https://evil.example">click</a>`,
      link,
      expiresAt: inOneDay,
      now,
    });
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain('href="https://evil.example"');
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("escapes the link inside the HTML attribute", () => {
    const email = renderVerificationEmail({ link: `http://x.example/verify?token=a"b&c`, expiresAt: null, now });
    expect(email.html).toContain(`href="http://x.example/verify?token=a&quot;b&amp;c"`);
    expect(email.text).toContain("Hi,");
    expect(email.text).toContain("This link expires soon.");
  });
});

describe("password reset email", () => {
  it("has the exact subject, the reset link and the expiry", () => {
    const link = "http://localhost:8080/reset-password?token=r1";
    const email = renderPasswordResetEmail({ link, expiresAt: new Date("2025-11-24T11:00:00Z"), now });
    expect(email.subject).toBe(RESET_SUBJECT);
    expect(email.subject).toBe("Reset your Crafter password");
    expect(email.text).toContain(link);
    expect(email.text).toContain("expires in 60 minutes (Mon, 24 Nov 2025 11:00 UTC)");
    expect(email.html).toContain(`href="${link}"`);
    expect(email.html).toContain("Reset your password");
  });
});

describe("renderConsentEmail (lead form double opt-in)", () => {
  it("names the form, links the confirm page and the preference centre, escapes the title", () => {
    const email = renderConsentEmail({
      firstName: "Grace",
      formTitle: 'Bread <club> & "friends"',
      link: "https://app.example/confirm?token=a.b",
      preferencesLink: "https://app.example/preferences/c.d",
    });
    expect(email.subject).toBe("Please confirm your subscription");
    expect(email.text).toContain("Hi Grace,");
    expect(email.text).toContain('via "Bread <club> & "friends""');
    expect(email.text).toContain("https://app.example/confirm?token=a.b");
    expect(email.text).toContain("Manage your email preferences: https://app.example/preferences/c.d");
    expect(email.html).toContain("Bread &lt;club&gt; &amp; &quot;friends&quot;");
    expect(email.html).toContain('<a href="https://app.example/preferences/c.d">');
    expect(email.text).not.toContain("Crafter team");
  });

  it("is headed and signed by the business, with its logo, never by Crafter", () => {
    const email = renderConsentEmail({
      firstName: "Grace",
      formTitle: "Bread club",
      link: "https://app.example/confirm?token=a.b",
      brand: { name: 'Rossi & <Sons> "Bakery"', logoUrl: "https://cdn.example/logo.png?a=1&b=2" },
    });
    expect(email.subject).toBe('Please confirm your subscription to Rossi & <Sons> "Bakery"');
    expect(email.text.split("\n")[0]).toBe('Rossi & <Sons> "Bakery"');
    expect(email.text).toContain('to hear from Rossi & <Sons> "Bakery" via "Bread club"');
    expect(email.text).toContain('— Rossi & <Sons> "Bakery"');
    expect(email.html).toContain(
      '<img src="https://cdn.example/logo.png?a=1&amp;b=2" alt="Rossi &amp; &lt;Sons&gt; &quot;Bakery&quot;"',
    );
    expect(email.html).not.toContain("<Sons>");
    expect(`${email.text}${email.html}`).not.toMatch(/crafter/i);
  });

  it("shows no image for a logo that is not an http(s) URL", () => {
    const email = renderConsentEmail({
      formTitle: "",
      link: "https://app.example/confirm?token=a.b",
      brand: { name: "Rossi", logoUrl: "javascript:alert(1)" },
    });
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("Rossi");
  });
});

describe("absoluteLogoUrl", () => {
  it("keeps http(s) URLs, puts a deployment path under the origin, drops anything else", () => {
    expect(absoluteLogoUrl("https://cdn.example/l.png", "https://app.example")).toBe("https://cdn.example/l.png");
    expect(absoluteLogoUrl("/media/u/a/l.png?exp=1&sig=x", "https://app.example/")).toBe(
      "https://app.example/media/u/a/l.png?exp=1&sig=x",
    );
    expect(absoluteLogoUrl("//evil.example/l.png", "https://app.example")).toBe("");
    expect(absoluteLogoUrl("data:image/png;base64,AA", "https://app.example")).toBe("");
    expect(absoluteLogoUrl("", "https://app.example")).toBe("");
  });
});

describe("email change emails (issue 14)", () => {
  const now = new Date("2026-01-01T10:00:00Z");
  const input = {
    displayName: "Ana",
    newEmail: "ana+new@example.com",
    expiresAt: new Date("2026-01-02T10:00:00Z"),
    now,
  };

  it("sends the new address its single-use link", () => {
    const email = renderEmailChangeEmail({ ...input, link: "https://crafter.test/confirm-email?token=abc" });
    expect(email.subject).toBe("Confirm your new email for Crafter");
    expect(email.text).toContain("https://crafter.test/confirm-email?token=abc");
    expect(email.html).toContain('href="https://crafter.test/confirm-email?token=abc"');
    expect(email.text).toContain("can be used once");
  });

  it("tells the old address which address was asked for, escaped in HTML", () => {
    const email = renderEmailChangeNotice({
      ...input,
      newEmail: "a<b>@example.com",
      link: "https://crafter.test/app/settings/change-password",
    });
    expect(email.subject).toBe("Your Crafter email is being changed");
    expect(email.text).toContain("a<b>@example.com");
    expect(email.html).toContain("a&lt;b&gt;@example.com");
    expect(email.html).not.toContain("a<b>");
  });
});

describe("team invitation email (issue 14)", () => {
  it("names who invited, the project and the role, escaped in HTML, with the single-use link", () => {
    const email = renderInviteEmail({
      inviterName: "Ana <Owner>",
      projectTitle: "Bread & Co",
      role: "projectAdmin",
      link: "https://crafter.test/app/invite?token=abc",
      expiresAt: inOneDay,
      now,
    });
    expect(email.subject).toBe("You are invited to a project on Crafter");
    expect(email.text).toContain('Ana <Owner> invited you to work on "Bread & Co" on Crafter as project admin.');
    expect(email.html).toContain("Ana &lt;Owner&gt;");
    expect(email.html).toContain("Bread &amp; Co");
    expect(email.html).not.toContain("<Owner>");
    expect(email.html).toContain('href="https://crafter.test/app/invite?token=abc"');
    expect(email.text).toContain("can be used once");
  });
});
