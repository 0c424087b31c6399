import { randomBytes } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { keyRing, needsReseal, openSecret, parseKeyRing, parseSecretKey, sealSecret } from "../src/crypto/secret-box";

describe("secret box (AES-256-GCM with a key ring)", () => {
  const ring = keyRing([{ id: "k1", key: randomBytes(32) }]);

  it("opens what it sealed, for the same owner only, and never shows the plaintext", () => {
    const sealed = sealSecret(ring, "sk-live-1234567890abcd", "user-1");
    expect(sealed).toMatch(/^v2\.k1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("sk-live");
    expect(openSecret(ring, sealed, "user-1")).toBe("sk-live-1234567890abcd");
    expect(() => openSecret(ring, sealed, "user-2")).toThrow();
    expect(() => openSecret(keyRing([{ id: "k1", key: randomBytes(32) }]), sealed, "user-1")).toThrow();
  });

  it("uses a fresh IV each time and refuses altered ciphertext", () => {
    const a = sealSecret(ring, "same", "u");
    const b = sealSecret(ring, "same", "u");
    expect(a).not.toBe(b);
    const parts = a.split(".");
    const body = Buffer.from(parts[4]!, "base64url");
    body[0] = body[0]! ^ 1;
    expect(() => openSecret(ring, [...parts.slice(0, 4), body.toString("base64url")].join("."), "u")).toThrow();
    expect(() => openSecret(ring, "not sealed", "u")).toThrow("not a sealed secret");
  });

  it("rotates: the first key seals, an older key still opens what it sealed, a dropped key does not", () => {
    const old = randomBytes(32);
    const before = keyRing([{ id: "old", key: old }]);
    const sealedBefore = sealSecret(before, "dkim-private-key", "example.com");
    const rotated = parseKeyRing(`new:${randomBytes(32).toString("base64")}, old:${old.toString("hex")}`);
    expect(openSecret(rotated, sealedBefore, "example.com")).toBe("dkim-private-key");
    expect(needsReseal(rotated, sealedBefore)).toBe(true);
    const sealedAfter = sealSecret(rotated, "dkim-private-key", "example.com");
    expect(sealedAfter.startsWith("v2.new.")).toBe(true);
    expect(needsReseal(rotated, sealedAfter)).toBe(false);
    const dropped = parseKeyRing(`new:${randomBytes(32).toString("base64")}`);
    expect(() => openSecret(dropped, sealedBefore, "example.com")).toThrow("sealed with an unknown key");
  });

  it("still opens the v1 form (no key id) with the ring's v1 key", () => {
    // Sealed by the v1 code that kept users' AI provider keys, with this fixed key.
    const key = Buffer.from("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "hex");
    const sealed = "v1.lS36RBcaF38WlqZz.N9KbfMZorR9KDZml6MTBPQ.6n2iMV4b0SnH8yy7r_KEIzLBc68r";
    expect(openSecret(keyRing([{ id: "ai", key }], key), sealed, "user-legacy")).toBe("sk-legacy-sealed-1234");
    expect(() => openSecret(keyRing([{ id: "ai", key }]), sealed, "user-legacy")).toThrow("unknown key");
    expect(() => openSecret(keyRing([{ id: "ai", key }], key), sealed, "user-other")).toThrow();
  });

  it("parses keys as base64 or hex and rings as id:key lists, without quoting a key in errors", () => {
    const raw = randomBytes(32);
    expect(parseSecretKey(raw.toString("base64")).equals(raw)).toBe(true);
    expect(parseSecretKey(raw.toString("hex")).equals(raw)).toBe(true);
    expect(() => parseSecretKey(randomBytes(16).toString("base64"))).toThrow("must be 32 bytes");
    const short = randomBytes(16).toString("base64");
    expect(() => parseKeyRing(`a:${short}`)).toThrow(/^key "a" must be 32 bytes/);
    try {
      parseKeyRing(`a:${short}`);
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
    expect(() => parseKeyRing(raw.toString("base64"))).toThrow("entry 1 must be id:key");
    expect(() => parseKeyRing("")).toThrow("needs at least one key");
    expect(() => parseKeyRing(`a:${raw.toString("hex")},a:${raw.toString("hex")}`)).toThrow("given twice");
    expect(() => parseKeyRing(`a.b:${raw.toString("hex")}`)).toThrow("must be 1 to 32 letters");
  });
});
