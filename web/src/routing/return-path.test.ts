import { describe, expect, it } from "@jest/globals";
import {
  forgetReturnPath,
  RETURN_PATH_TTL_MS,
  type ReturnPathStorage,
  recallReturnPath,
  rememberReturnPath,
  withCallback,
} from "./return-path";

function memory(): ReturnPathStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe("return path through sign-up", () => {
  it("keeps an invitation path for a day", () => {
    const store = memory();
    rememberReturnPath(store, "/app/invite?token=abc", 1_000);
    expect(recallReturnPath(store, 2_000)).toBe("/app/invite?token=abc");
    expect(recallReturnPath(store, 1_000 + RETURN_PATH_TTL_MS + 1)).toBeNull();
  });

  it.each([
    "https://evil.example/app",
    "//evil.example/app",
    "/\\evil.example",
    "javascript:alert(1)",
    "/signin?callbackUrl=/app",
    "",
  ])("never stores or returns %s", (path) => {
    const store = memory();
    rememberReturnPath(store, "/app/contacts", 0);
    rememberReturnPath(store, path, 0);
    expect(recallReturnPath(store, 1)).toBeNull();
    expect(withCallback("/signin", path)).toBe("/signin");
  });

  it("ignores a tampered stored value and forgets on request", () => {
    const store = memory();
    store.setItem("crafter.returnPath", JSON.stringify({ path: "//evil.example", at: 0 }));
    expect(recallReturnPath(store, 1)).toBeNull();
    store.setItem("crafter.returnPath", "not json");
    expect(recallReturnPath(store, 1)).toBeNull();
    rememberReturnPath(store, "/app/invite?token=x", 0);
    forgetReturnPath(store);
    expect(recallReturnPath(store, 1)).toBeNull();
  });

  it("builds the sign-in link with the path encoded", () => {
    expect(withCallback("/signin", "/app/invite?token=a&b=1")).toBe(
      "/signin?callbackUrl=%2Fapp%2Finvite%3Ftoken%3Da%26b%3D1",
    );
  });
});
