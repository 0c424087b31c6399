import { isAppError, openSecret, parseKeyRing, sealSecret } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { aiKeyRing } from "../src/config";
import { keyHint, redact, userAiSettings, validateAiSettings } from "../src/domain/ai-settings";

describe("keyHint", () => {
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

describe("aiKeyRing (AI_SETTINGS_KEY and SECRETS_KEYS)", () => {
  const legacy = Buffer.alloc(32, 7);

  it("seals with AI_SETTINGS_KEY as key `ai` when no SECRETS_KEYS, and opens its v1 values", () => {
    const ring = aiKeyRing({ AI_SETTINGS_KEY: legacy })!;
    expect(sealSecret(ring, "sk-1", "u").startsWith("v2.ai.")).toBe(true);
    expect(ring.v1?.equals(legacy)).toBe(true);
    expect(aiKeyRing({})).toBeUndefined();
  });

  it("seals with SECRETS_KEYS' first key once set, still opening what AI_SETTINGS_KEY sealed", () => {
    const before = aiKeyRing({ AI_SETTINGS_KEY: legacy })!;
    const sealed = sealSecret(before, "sk-2", "u");
    const ring = aiKeyRing({
      AI_SETTINGS_KEY: legacy,
      SECRETS_KEYS: parseKeyRing(`s1:${Buffer.alloc(32, 9).toString("hex")}`),
    })!;
    expect(openSecret(ring, sealed, "u")).toBe("sk-2");
    expect(sealSecret(ring, "sk-3", "u").startsWith("v2.s1.")).toBe(true);
  });
});
