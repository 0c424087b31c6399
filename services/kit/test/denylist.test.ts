import { describe, expect, it } from "@jest/globals";
import { deniedBy, denylistKeys } from "../src/redis/denylist";

describe("the access-token denylist's rule", () => {
  const claims = { sid: "fam-1", sub: "user-1", iat: 1_700_000_000 };

  it("reads the session's key and the user's key, in that order", () => {
    expect(denylistKeys(claims)).toEqual(["deny:sid:fam-1", "deny:user:user-1"]);
  });

  it("denies a denied session, and tokens issued at or before the user's password change", () => {
    expect(deniedBy(claims, [null, null])).toBe(false);
    expect(deniedBy(claims, ["1", null])).toBe(true);
    expect(deniedBy(claims, [null, String(claims.iat)])).toBe(true);
    expect(deniedBy(claims, [null, String(claims.iat - 1)])).toBe(false);
    // Claims naming nobody are never denied (no key can name them).
    expect(deniedBy({}, ["1", "9999999999"])).toBe(false);
  });
});
