import { randomBytes } from "node:crypto";
import { isAppError } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { redact, userAiSettings, validateAiSettings } from "../src/domain/ai-settings";
import { keyHint, openSecret, parseSecretKey, sealSecret } from "../src/domain/secret-box";

describe("secret box (AES-256-GCM, AI_SETTINGS_KEY)", () => {
  const key = randomBytes(32);

  it("opens what it sealed, for the same owner only, and never shows the plaintext", () => {
    const sealed = sealSecret(key, "sk-live-1234567890abcd", "user-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("sk-live");
    expect(openSecret(key, sealed, "user-1")).toBe("sk-live-1234567890abcd");
    expect(() => openSecret(key, sealed, "user-2")).toThrow();
    expect(() => openSecret(randomBytes(32), sealed, "user-1")).toThrow();
  });

  it("uses a fresh IV each time and refuses altered ciphertext", () => {
    const a = sealSecret(key, "same", "u");
    const b = sealSecret(key, "same", "u");
    expect(a).not.toBe(b);
    const parts = a.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    expect(() => openSecret(key, [parts[0], parts[1], parts[2], body.toString("base64url")].join("."), "u")).toThrow();
    expect(() => openSecret(key, "not sealed", "u")).toThrow("not a sealed secret");
  });

  it("parses a 32-byte key as base64 or hex and refuses other lengths", () => {
    const raw = randomBytes(32);
    expect(parseSecretKey(raw.toString("base64")).equals(raw)).toBe(true);
    expect(parseSecretKey(raw.toString("hex")).equals(raw)).toBe(true);
    expect(() => parseSecretKey(randomBytes(16).toString("base64"))).toThrow("must be 32 bytes");
  });

  it("shows only the last 4 characters of a long key, nothing of a short one", () => {
    expect(keyHint("sk-abcdefgh1234")).toBe("1234");
    expect(keyHint("short")).toBe("");
  });
});

describe("validateAiSettings", () => {
  const known = (name: string) => name === "BlogWriter";
  const base = { provider: "openai", baseUrl: "", defaultModel: "gpt-4o-mini", workflowModels: {}, apiKey: "sk-1" };
  const fieldsOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (isAppError(error)) return { code: error.code, fields: error.fields };
      throw error;
    }
    return undefined;
  };

  it("accepts a provider, model and key, drops blank workflow rows", () => {
    expect(
      validateAiSettings(
        { ...base, workflowModels: { BlogWriter: " gpt-4.1 ", Other: "" } },
        { keySaved: false, known },
      ),
    ).toEqual({
      provider: "openai",
      baseUrl: "",
      defaultModel: "gpt-4o-mini",
      workflowModels: { BlogWriter: "gpt-4.1" },
      apiKey: "sk-1",
    });
  });

  it("names each wrong field", () => {
    expect(
      fieldsOf(() => validateAiSettings({ ...base, provider: "mistral" }, { keySaved: false, known })),
    ).toMatchObject({
      code: "CR_ERR_BAD_REQUEST",
      fields: { provider: expect.any(String) },
    });
    expect(
      fieldsOf(() =>
        validateAiSettings({ ...base, provider: "openai-compatible", apiKey: "" }, { keySaved: false, known }),
      )?.fields,
    ).toEqual({ baseUrl: expect.stringContaining("base URL") });
    expect(fieldsOf(() => validateAiSettings({ ...base, apiKey: "" }, { keySaved: false, known }))?.fields).toEqual({
      apiKey: "Enter the provider's API key.",
    });
    expect(validateAiSettings({ ...base, apiKey: "" }, { keySaved: true, known }).apiKey).toBeUndefined();
    expect(
      fieldsOf(() =>
        validateAiSettings(
          { ...base, baseUrl: "file:///etc/passwd", defaultModel: "bad model", workflowModels: { Nope: "x" } },
          { keySaved: false, known },
        ),
      )?.fields,
    ).toEqual({
      baseUrl: expect.any(String),
      defaultModel: expect.any(String),
      "workflowModels.Nope": "There is no such workflow.",
    });
  });

  it("builds engine settings from the user's provider only", () => {
    const settings = userAiSettings(
      {
        provider: "openai-compatible",
        baseUrl: "http://llm.test/v1",
        defaultModel: "llama3.1",
        workflowModels: { BlogWriter: "qwen" },
        apiKey: "",
      },
      { timeoutMs: 1000, maxRetries: 1 },
    );
    expect(settings).toEqual({
      default: { provider: "openai-compatible", model: "llama3.1", baseURL: "http://llm.test/v1" },
      workflows: { BlogWriter: { provider: "openai-compatible", model: "qwen", baseURL: "http://llm.test/v1" } },
      timeoutMs: 1000,
      maxRetries: 1,
    });
  });

  it("redacts the key from a provider's message", () => {
    expect(redact("Incorrect API key provided: sk-secret-99", "sk-secret-99")).toBe("Incorrect API key provided: ••••");
  });
});
