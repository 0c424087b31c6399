import { describe, expect, it } from "@jest/globals";
import { decideRefresh, hashToken, newOpaqueToken, passwordError } from "../src/domain/tokens";

describe("opaque tokens", () => {
  it("are 256 random bits in base64url and are stored as SHA-256", () => {
    const token = newOpaqueToken();
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(newOpaqueToken()).not.toBe(token);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(hashToken(token));
  });
});

describe("password policy", () => {
  it("takes 8 to 128 characters", () => {
    expect(passwordError("1234567")).toMatch(/at least 8/);
    expect(passwordError("12345678")).toBeNull();
    expect(passwordError("x".repeat(128))).toBeNull();
    expect(passwordError("x".repeat(129))).toMatch(/at most 128/);
  });
});

describe("refresh decision", () => {
  const now = new Date("2026-01-01T12:00:00Z");
  const later = new Date("2026-01-31T12:00:00Z");
  const grace = 20_000;

  it("rotates an unused, live token", () => {
    expect(decideRefresh({ expiresAt: later, usedAt: null, revokedAt: null }, now, grace)).toBe("rotate");
  });
  it("allows a grace reuse within the window from the client the token was issued to (parallel tabs)", () => {
    const usedAt = new Date(now.getTime() - 5_000);
    expect(decideRefresh({ expiresAt: later, usedAt, revokedAt: null, clientHash: "c1" }, now, grace, "c1")).toBe(
      "grace",
    );
  });
  it("calls a reuse within the window from another client a reuse", () => {
    const usedAt = new Date(now.getTime() - 5_000);
    expect(decideRefresh({ expiresAt: later, usedAt, revokedAt: null, clientHash: "c1" }, now, grace, "c2")).toBe(
      "reuse",
    );
  });
  it("calls a token used before the grace window a reuse", () => {
    const usedAt = new Date(now.getTime() - 20_001);
    expect(decideRefresh({ expiresAt: later, usedAt, revokedAt: null }, now, grace)).toBe("reuse");
  });
  it("refuses unknown, revoked and expired tokens", () => {
    expect(decideRefresh(null, now, grace)).toBe("invalid");
    expect(decideRefresh({ expiresAt: later, usedAt: null, revokedAt: now }, now, grace)).toBe("invalid");
    expect(decideRefresh({ expiresAt: now, usedAt: null, revokedAt: null }, now, grace)).toBe("invalid");
  });
});
