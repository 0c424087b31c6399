import { describe, expect, it } from "@jest/globals";
import { decideGoogleSignIn, googleClaims, safeReturnPath } from "../src/domain/google-identity";

const claims = (over: Partial<ReturnType<typeof googleClaims>> = {}) => ({
  sub: "g-1",
  email: "ada@example.com",
  emailVerified: true,
  name: "Ada",
  ...over,
});

describe("googleClaims", () => {
  it("normalises the email and reads email_verified as Google and other issuers send it", () => {
    expect(googleClaims({ sub: "1", email: " Ada@Example.COM ", email_verified: true })).toEqual({
      sub: "1",
      email: "ada@example.com",
      emailVerified: true,
      name: "",
    });
    expect(googleClaims({ sub: "1", email: "a@b.c", email_verified: "true" }).emailVerified).toBe(true);
    expect(googleClaims({ sub: "1", email: "a@b.c", email_verified: "false" }).emailVerified).toBe(false);
    expect(googleClaims({ sub: "1", email: "a@b.c" }).emailVerified).toBe(false);
    expect(googleClaims({ sub: 7, email: ["x"] })).toMatchObject({ sub: "", email: "" });
  });
});

describe("decideGoogleSignIn", () => {
  const verified = { id: "u-1", emailVerified: true, expired: false };

  it("refuses an unverified email, or a token without sub or email, whatever the accounts", () => {
    expect(decideGoogleSignIn(claims({ emailVerified: false }), "u-1", verified)).toEqual({
      kind: "refuse_unverified",
    });
    expect(decideGoogleSignIn(claims({ sub: "" }), undefined, undefined)).toEqual({ kind: "refuse_unverified" });
    expect(decideGoogleSignIn(claims({ email: "" }), undefined, undefined)).toEqual({ kind: "refuse_unverified" });
  });

  it("signs a linked identity in to its account, even when the email now names another", () => {
    expect(decideGoogleSignIn(claims(), "u-9", verified)).toEqual({ kind: "sign_in", userId: "u-9" });
  });

  it("creates an account when none has the email, or only an expired unverified one", () => {
    expect(decideGoogleSignIn(claims(), undefined, undefined)).toEqual({ kind: "create" });
    expect(decideGoogleSignIn(claims(), undefined, { id: "u-2", emailVerified: false, expired: true })).toEqual({
      kind: "create",
    });
  });

  it("never signs in to a verified account by email alone: the link waits for its password sign-in", () => {
    expect(decideGoogleSignIn(claims(), undefined, verified)).toEqual({ kind: "pending_link", userId: "u-1" });
  });

  it("claims an account whose email was never verified", () => {
    expect(decideGoogleSignIn(claims(), undefined, { id: "u-3", emailVerified: false, expired: false })).toEqual({
      kind: "claim",
      userId: "u-3",
    });
  });
});

describe("safeReturnPath", () => {
  it("keeps paths of this site and sends anything else to /app", () => {
    expect(safeReturnPath("/app/settings?tab=1")).toBe("/app/settings?tab=1");
    for (const bad of [
      "",
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "app",
      "/a\nb",
      `/${"a".repeat(600)}`,
    ])
      expect(safeReturnPath(bad)).toBe("/app");
  });
});
