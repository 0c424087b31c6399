import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { safeCallbackUrl } from "../../routing/guard";
import { GOOGLE_ERRORS, googleError, googleReturnPath } from "./google-sign-in";

describe("the Google sign-in outcome on /signin and /signup", () => {
  it("has a message for every error code the gateway sends back", () => {
    // The gateway's redirects name their codes in its routes file: each must have its own message.
    const routes = readFileSync(join(process.cwd(), "services/gateway/src/routes/google-signin.routes.ts"), "utf8");
    const sent = new Set([...routes.matchAll(/"(google_[a-z_]+|rate_limited)"/g)].map((match) => match[1]!));
    expect(sent.size).toBeGreaterThanOrEqual(6);
    for (const code of sent) expect(Object.keys(GOOGLE_ERRORS)).toContain(code);
  });

  it("says what happened and what to do, and falls back for an unknown code", () => {
    expect(googleError(null)).toBeNull();
    expect(googleError("")).toBeNull();
    expect(googleError("google_denied")?.title).toBe("Google sign-in was cancelled");
    expect(googleError("google_unverified")?.description).toContain("not verified by Google");
    expect(googleError("toString")?.title).toBe("Google sign-in did not work");
    expect(googleError("something_new")?.title).toBe("Google sign-in did not work");
  });

  it("comes back through /signin to take the session, keeping a safe callbackUrl", () => {
    expect(googleReturnPath(null)).toBe("/signin?google=signed_in");
    const back = googleReturnPath("/app/crafts?tab=mine&x=1");
    expect(back).toBe("/signin?google=signed_in&callbackUrl=%2Fapp%2Fcrafts%3Ftab%3Dmine%26x%3D1");
    const url = new URL(back, "https://crafter.invalid");
    expect(safeCallbackUrl(url.searchParams.get("callbackUrl"))).toBe("/app/crafts?tab=mine&x=1");
  });
});
