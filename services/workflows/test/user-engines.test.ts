import { randomBytes } from "node:crypto";
import { createLogger, type KeyRing, keyRing, sealSecret } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import type { AiSettings } from "../src/config";
import { createOfflineEngine } from "../src/generation/offline-engine";
import type { TextEngine } from "../src/generation/text-engine";
import { createEngineSource } from "../src/generation/user-engines";
import type { AiSettingsDoc } from "../src/store/ai-settings.repository";

const key = keyRing([{ id: "t", key: randomBytes(32) }]);
const fallback = createOfflineEngine({ delayMs: 0 });

function source(docs: Record<string, AiSettingsDoc>, options: { key?: KeyRing; now?: () => number } = {}) {
  const reads: string[] = [];
  const built: AiSettings[] = [];
  const engines = createEngineSource({
    fallback,
    load: async (userId) => {
      reads.push(userId);
      return docs[userId] ?? null;
    },
    key: "key" in options ? options.key : key,
    build: (settings) => {
      built.push(settings);
      return { name: settings.default.provider } as TextEngine;
    },
    server: { timeoutMs: 1000, maxRetries: 0 },
    ttlMs: 30_000,
    logger: createLogger("user-engines-test", "silent"),
    now: options.now,
  });
  return { engines, reads, built };
}

const doc = (userId: string, apiKey: string): AiSettingsDoc => ({
  _id: userId,
  provider: "openai",
  baseUrl: "",
  defaultModel: "gpt-4o-mini",
  workflowModels: { BlogWriter: "gpt-4.1" },
  keySealed: sealSecret(key, apiKey, userId),
  keyLast4: apiKey.slice(-4),
  updatedAt: new Date(),
});

describe("each user's engine", () => {
  it("builds the user's provider with their opened key and models, reading their settings once per TTL", async () => {
    let clock = 0;
    const { engines, reads, built } = source({ u1: doc("u1", "sk-user-one-1111") }, { now: () => clock });
    const first = await engines.forUser("u1");
    expect(first.name).toBe("openai");
    expect(built[0]).toEqual({
      default: { provider: "openai", model: "gpt-4o-mini", apiKey: "sk-user-one-1111" },
      workflows: { BlogWriter: { provider: "openai", model: "gpt-4.1", apiKey: "sk-user-one-1111" } },
      timeoutMs: 1000,
      maxRetries: 0,
    });
    expect(await engines.forUser("u1")).toBe(first);
    expect(reads).toEqual(["u1"]);
    clock = 30_001;
    await engines.forUser("u1");
    expect(reads).toEqual(["u1", "u1"]);
    engines.forget("u1");
    await engines.forUser("u1");
    expect(reads).toEqual(["u1", "u1", "u1"]);
  });

  it("gives the server's engine to a user without settings, and to everyone without AI_SETTINGS_KEY", async () => {
    expect(await source({}).engines.forUser("nobody")).toBe(fallback);
    const keyless = source({ u1: doc("u1", "sk-user-one-1111") }, { key: undefined });
    expect(await keyless.engines.forUser("u1")).toBe(fallback);
    expect(keyless.reads).toEqual([]);
  });

  it("falls back to the server's engine when a saved key does not open (sealed for another user)", async () => {
    const stolen = { ...doc("u2", "sk-user-two-2222"), _id: "u1" };
    const { engines, built } = source({ u1: stolen });
    expect(await engines.forUser("u1")).toBe(fallback);
    expect(built).toEqual([]);
  });
});
