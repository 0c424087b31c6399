import { describe, expect, it } from "@jest/globals";
import { checkUsageRequest, decideReserve } from "../src/domain/usage";

describe("usage rules", () => {
  it("reserves all or nothing: up to the limit exactly, never past it", () => {
    expect(decideReserve({ seq: 3, used: 15 }, 5, 20)).toEqual({ ok: true, usedAfter: 20 });
    expect(decideReserve({ seq: 3, used: 15 }, 6, 20)).toEqual({ ok: false });
  });

  it("takes only monthly counters, whole amounts 1–100,000 and keys of 1–200 characters", () => {
    expect(checkUsageRequest({ counter: "emails", amount: 1, key: "k" })).toEqual({});
    expect(Object.keys(checkUsageRequest({ counter: "profiles", amount: 1, key: "k" }))).toEqual(["counter"]);
    expect(Object.keys(checkUsageRequest({ counter: "emails", amount: 1.5, key: "k" }))).toEqual(["amount"]);
    expect(Object.keys(checkUsageRequest({ counter: "emails", amount: 100_001, key: "k" }))).toEqual(["amount"]);
    expect(Object.keys(checkUsageRequest({ counter: "emails", key: "x".repeat(201) }))).toEqual(["key"]);
  });
});
