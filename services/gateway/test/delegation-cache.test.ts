import { describe, expect, it } from "@jest/globals";
import { DelegationCache, permissionOf } from "../src/http/acting";

function cache(options = { maxAgeMs: 60_000, marginMs: 10_000, maxEntries: 2 }) {
  let now = 1_000_000;
  const c = new DelegationCache(options, () => now);
  return { c, tick: (ms: number) => (now += ms), at: (ms: number) => new Date(1_000_000 + ms) };
}

describe("DelegationCache", () => {
  it("keeps a token at most maxAgeMs", () => {
    const { c, tick, at } = cache();
    c.set("m", "p", "t1", at(3_600_000));
    expect(c.get("m", "p")).toBe("t1");
    tick(59_999);
    expect(c.get("m", "p")).toBe("t1");
    tick(1);
    expect(c.get("m", "p")).toBeUndefined();
  });

  it("lets a token go marginMs before it expires, and never keeps one that close", () => {
    const { c, tick, at } = cache();
    c.set("m", "p", "t1", at(30_000));
    tick(19_999);
    expect(c.get("m", "p")).toBe("t1");
    tick(1);
    expect(c.get("m", "p")).toBeUndefined();
    c.set("m", "p", "t2", at(20_000 + 10_000));
    expect(c.get("m", "p")).toBeUndefined();
  });

  it("is per member and project, and drops one member or a whole project", () => {
    const { c, at } = cache({ maxAgeMs: 60_000, marginMs: 0, maxEntries: 10 });
    c.set("m1", "p1", "a", at(60_000));
    c.set("m2", "p1", "b", at(60_000));
    c.set("m1", "p2", "c", at(60_000));
    expect(c.get("m2", "p2")).toBeUndefined();
    c.drop("p1", "m1");
    expect(c.get("m1", "p1")).toBeUndefined();
    expect(c.get("m2", "p1")).toBe("b");
    c.drop("p1");
    expect(c.get("m2", "p1")).toBeUndefined();
    expect(c.get("m1", "p2")).toBe("c");
  });

  it("evicts the least recently used when full", () => {
    const { c, at } = cache({ maxAgeMs: 60_000, marginMs: 0, maxEntries: 2 });
    c.set("m1", "p", "a", at(60_000));
    c.set("m2", "p", "b", at(60_000));
    expect(c.get("m1", "p")).toBe("a");
    c.set("m3", "p", "c", at(60_000));
    expect(c.get("m2", "p")).toBeUndefined();
    expect(c.get("m1", "p")).toBe("a");
    expect(c.get("m3", "p")).toBe("c");
  });

  it("keeps a newer token in place of the older one without evicting another", () => {
    const { c, at } = cache({ maxAgeMs: 60_000, marginMs: 0, maxEntries: 2 });
    c.set("m1", "p", "a", at(60_000));
    c.set("m2", "p", "b", at(60_000));
    c.set("m1", "p", "a2", at(60_000));
    expect(c.get("m1", "p")).toBe("a2");
    expect(c.get("m2", "p")).toBe("b");
  });

  it("runs on the real clock by default", () => {
    const c = new DelegationCache();
    c.set("m", "p", "t", new Date(Date.now() + 3_600_000));
    expect(c.get("m", "p")).toBe("t");
    c.set("m", "q", "u", new Date(Date.now() + 30_000));
    expect(c.get("m", "q")).toBeUndefined();
  });

  it("a zero maxAgeMs keeps nothing", () => {
    const { c, at } = cache({ maxAgeMs: 0, marginMs: 0, maxEntries: 2 });
    c.set("m", "p", "a", at(60_000));
    expect(c.get("m", "p")).toBeUndefined();
  });
});

describe("permissionOf", () => {
  it("reads need project.read, everything else project.write", () => {
    expect(permissionOf("get")).toBe("project.read");
    expect(permissionOf("POST")).toBe("project.write");
    expect(permissionOf("delete")).toBe("project.write");
  });
});
