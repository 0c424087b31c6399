import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, describeError, loadConfig } from "@crafter/kit";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { aiSettings, configSchema, type ModelSpec } from "../src/config";
import { startCraft } from "../src/domain/craft";
import { MalformedOutputError, shapeOutput } from "../src/domain/output";
import { buildGeneration, type GenerationRequest } from "../src/domain/prompt";
import { createAiSdkEngine } from "../src/generation/ai-sdk-engine";
import { malformedOutputError, PROVIDER_MESSAGES } from "../src/generation/errors";
import { checkWorkflowModels, createTextEngine, languageModel } from "../src/generation/providers";
import { type FakeAi, PLAN, startFakeAi } from "./fake-ai-server";
import { blogWriter, profile, registry } from "./fixtures";

let fake: FakeAi;
beforeAll(async () => {
  fake = await startFakeAi();
});
afterAll(() => fake.close());

const logger = createLogger("workflows-test", "silent");

function engineFor(
  model: string,
  options: {
    provider?: ModelSpec["provider"];
    timeoutMs?: number;
    retries?: number;
    apiKey?: string;
    baseURL?: string;
  } = {},
) {
  const provider = options.provider ?? "openai-compatible";
  if (provider === "offline") throw new Error("not an AI SDK engine");
  return createAiSdkEngine({
    model: languageModel({
      provider,
      model,
      baseURL: options.baseURL ?? fake.baseURL,
      apiKey: options.apiKey ?? "sk-test",
    }),
    modelId: model,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.retries ?? 0,
    logger,
  });
}

function request(workflowName = "BlogWriter"): GenerationRequest {
  const progress = startCraft(blogWriter, profile, new Date());
  const values = { topic: "Keeping a starter alive", keywords: ["starter"], audience: "home bakers", tone: "friendly" };
  return { ...buildGeneration(blogWriter, blogWriter.steps[0]!, values, progress.steps, profile), workflowName };
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

async function failure(run: AsyncIterable<string>) {
  try {
    await collect(run);
  } catch (error) {
    return describeError(error);
  }
  throw new Error("the generation did not fail");
}

const signal = () => new AbortController().signal;
const requestsFor = (model: string) =>
  fake.received.filter((r) => r.body.model === model || r.path.includes(`/${model}:`));

describe("the AI SDK engine against an OpenAI-compatible server", () => {
  it("streams the model's text as it arrives and records token usage", async () => {
    const engine = engineFor("tiny-model");
    const req = request();
    expect(engine.describe(req)).toEqual({ engine: "tiny-model", framework: "" });
    const run = engine.stream(req, signal());
    const chunks = await collect(run);
    expect(chunks).toEqual(PLAN);
    expect(run.usage).toEqual({ inputTokens: 42, outputTokens: 17 });

    const sent = requestsFor("tiny-model").at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.authorization).toBe("Bearer sk-test");
    expect(sent.body.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.body.max_tokens).toBe(800);
    expect(sent.body.messages[0]!).toEqual({ role: "system", content: req.system });
    expect(sent.body.messages[1]!.role).toBe("user");
    expect(JSON.stringify(sent.body.messages[1]!.content)).toContain("Topic: Keeping a starter alive");
  });

  it("maps a provider 500 to UNAVAILABLE (503) after the retries, without leaking its message", async () => {
    const error = await failure(engineFor("broken-retried", { retries: 1 }).stream(request(), signal()));
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.status).toBe(503);
    expect(error.message).toBe(PROVIDER_MESSAGES.unreachable);
    expect(requestsFor("broken-retried")).toHaveLength(2);
  });

  it("maps an unreachable provider (connection refused) to UNAVAILABLE (503), never a 500", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await failure(
      engineFor("any", { baseURL: `http://127.0.0.1:${closed}/v1` }).stream(request(), signal()),
    );
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toBe(PROVIDER_MESSAGES.unreachable);
  });

  it("maps a refused key to AI_PROVIDER_ERROR (502): the settings need a look", async () => {
    const error = await failure(engineFor("gpt-test", { apiKey: "sk-bad-key" }).stream(request(), signal()));
    expect(error.code).toBe("AI_PROVIDER_ERROR");
    expect(error.status).toBe(502);
    expect(error.message).not.toContain("Incorrect API key");
  });

  it("maps a provider 429 to RATE_LIMITED with a retryable message", async () => {
    const error = await failure(engineFor("busy").stream(request(), signal()));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toBe(PROVIDER_MESSAGES.rateLimited);
  });

  it("retries a 429 and then streams the answer", async () => {
    const run = engineFor("busy-once", { retries: 2 }).stream(request(), signal());
    expect((await collect(run)).join("")).toBe(PLAN.join(""));
    expect(requestsFor("busy-once")).toHaveLength(2);
    expect(run.usage).toEqual({ inputTokens: 42, outputTokens: 17 });
  });

  it("maps a stream that is not the protocol to AI_PROVIDER_ERROR (502)", async () => {
    const error = await failure(engineFor("garbled").stream(request(), signal()));
    expect(error.code).toBe("AI_PROVIDER_ERROR");
    expect(error.message).toBe("The AI service refused the request. An owner or admin can check the AI settings.");
  });

  it("maps a timeout to UNAVAILABLE (503) with a timeout message", async () => {
    const error = await failure(engineFor("hang", { timeoutMs: 300 }).stream(request(), signal()));
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toBe(PROVIDER_MESSAGES.timeout);
  });

  it("lets a stream that keeps writing run past the timeout: it bounds the wait for each chunk", async () => {
    const run = engineFor("slow", { timeoutMs: 600 }).stream(request(), signal());
    const chunks = await collect(run);
    expect(chunks).toHaveLength(25);
    expect(run.usage).toEqual({ inputTokens: 1, outputTokens: 25 });
  });

  it("stops with the caller's reason when the caller aborts", async () => {
    const controller = new AbortController();
    const run = engineFor("hang").stream(request(), controller.signal);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of run) {
          seen.push(chunk);
          controller.abort(new Error("client went away"));
        }
      })(),
    ).rejects.toThrow("client went away");
    expect(seen).toEqual(["Once upon"]);
  });

  it("turns empty or list-less model output into ConflictingInputError (offline: InternalServerError)", async () => {
    const action = blogWriter.steps[0]!.action!;
    const output = "output" in action ? action.output : undefined;
    if (!output) throw new Error("BlogWriter's topic step writes text");
    for (const model of ["empty", "prose"]) {
      const text = (await collect(engineFor(model).stream(request(), signal()))).join("");
      let caught: unknown;
      try {
        shapeOutput(output, text);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(MalformedOutputError);
      const mapped = describeError(malformedOutputError(model));
      expect(mapped.code).toBe("ConflictingInputError");
      expect(mapped.message).toBe(PROVIDER_MESSAGES.emptyOutput);
    }
    expect(describeError(malformedOutputError("offline")).code).toBe("InternalServerError");
  });
});

describe("the OpenAI and Google providers", () => {
  it("OpenAI streams through chat completions with usage", async () => {
    const run = engineFor("gpt-test", { provider: "openai" }).stream(request(), signal());
    expect((await collect(run)).join("")).toBe(PLAN.join(""));
    expect(run.usage).toEqual({ inputTokens: 42, outputTokens: 17 });
    const sent = requestsFor("gpt-test").at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.authorization).toBe("Bearer sk-test");
  });

  it("Google streams Gemini's SSE with usage", async () => {
    const run = engineFor("gemini-test", { provider: "google" }).stream(request(), signal());
    expect((await collect(run)).join("")).toBe(PLAN.join(""));
    expect(run.usage).toEqual({ inputTokens: 42, outputTokens: 17 });
    const sent = requestsFor("gemini-test").at(-1)!;
    expect(sent.path).toBe("/v1/models/gemini-test:streamGenerateContent");
    expect(sent.googKey).toBe("sk-test");
    expect(JSON.stringify(sent.body.contents)).toContain("Keeping a starter alive");
  });

  it("Google errors map like the others", async () => {
    expect((await failure(engineFor("busy-gemini", { provider: "google" }).stream(request(), signal()))).code).toBe(
      "RATE_LIMITED",
    );
    expect((await failure(engineFor("broken-gemini", { provider: "google" }).stream(request(), signal()))).code).toBe(
      "UNAVAILABLE",
    );
    expect(
      (await failure(engineFor("gemini-test", { provider: "google", apiKey: "sk-bad" }).stream(request(), signal())))
        .code,
    ).toBe("AI_PROVIDER_ERROR");
  });
});

describe("AI configuration", () => {
  // The peers workflows calls are required (services/manifest.yaml); these tests are about the AI settings.
  const peers = {
    AUTH_URL: "http://auth:50051",
    PROJECTS_URL: "http://projects:50053",
    BILLING_URL: "http://billing:50056",
    MEDIA_URL: "http://media:50058",
    // Required by workflows for its billing calls; not what these tests are about.
    SERVICE_SECRET: "s".repeat(32),
  };
  const load = (env: Record<string, string>) => aiSettings(loadConfig(configSchema, { ...peers, ...env }));
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(configSchema, { ...peers, ...env });
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("the config loaded");
  };

  it("refuses to start without a peer's address, naming the variable and the peer", () => {
    const { BILLING_URL: _billing, ...withoutBilling } = peers;
    expect(() => loadConfig(configSchema, withoutBilling)).toThrow(
      "BILLING_URL is not set: the address of the billing service, which this service calls (services/manifest.yaml)",
    );
  });

  it("is offline with nothing set, and openai-compatible with only a base URL and model (as before)", () => {
    expect(load({}).default).toEqual({ provider: "offline" });
    expect(load({ AI_BASE_URL: "", AI_MODEL: "" }).default).toEqual({ provider: "offline" });
    expect(load({ AI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3.1" }).default).toEqual({
      provider: "openai-compatible",
      model: "llama3.1",
      baseURL: "http://127.0.0.1:11434/v1",
    });
  });

  it("reads a provider, its key and per-workflow models", () => {
    const settings = load({
      AI_PROVIDER: "openai",
      AI_MODEL: "gpt-4o-mini",
      AI_API_KEY: "sk-1",
      GOOGLE_GENERATIVE_AI_API_KEY: "g-1",
      AI_WORKFLOW_MODELS:
        '{"GoogleAdsWriter":"google:gemini-2.5-flash","BlogWriter":"gpt-4.1","SmartEditor":"offline"}',
      AI_TIMEOUT_MS: "5000",
      AI_MAX_RETRIES: "1",
    });
    expect(settings).toEqual({
      default: { provider: "openai", model: "gpt-4o-mini", apiKey: "sk-1" },
      workflows: {
        GoogleAdsWriter: { provider: "google", model: "gemini-2.5-flash", apiKey: "g-1" },
        BlogWriter: { provider: "openai", model: "gpt-4.1", apiKey: "sk-1" },
        SmartEditor: { provider: "offline" },
      },
      timeoutMs: 5000,
      maxRetries: 1,
    });
  });

  it("names every missing or bad variable", () => {
    expect(problems({ AI_PROVIDER: "openai" })).toMatch(/AI_MODEL: .*openai[\s\S]*AI_API_KEY: required/);
    expect(
      problems({ AI_PROVIDER: "google", AI_MODEL: "gemini", AI_API_KEY: "k", AI_WORKFLOW_MODELS: "{oops" }),
    ).toContain("AI_WORKFLOW_MODELS: must be JSON");
    expect(
      problems({
        AI_PROVIDER: "google",
        AI_MODEL: "gemini",
        AI_API_KEY: "k",
        AI_WORKFLOW_MODELS: '{"X":"openai:gpt"}',
      }),
    ).toContain("OPENAI_API_KEY: required for the openai provider (AI_WORKFLOW_MODELS.X)");
    expect(problems({ AI_MODEL: "llama3.1" })).toContain("AI_PROVIDER: required when AI_MODEL is set");
    expect(problems({ AI_PROVIDER: "openai-compatible", AI_MODEL: "m" })).toContain("AI_BASE_URL: required");
    expect(problems({ AI_PROVIDER: "claude" })).toContain("AI_PROVIDER");
  });

  it("rejects overrides of unknown workflows at start", () => {
    const settings = load({ AI_WORKFLOW_MODELS: '{"BlogWriter":"offline","NoSuchWorkflow":"offline"}' });
    expect(() => checkWorkflowModels(settings, (name) => registry.latest(name) !== undefined)).toThrow(
      "AI_WORKFLOW_MODELS names unknown workflows: NoSuchWorkflow",
    );
  });

  it("routes each workflow to its own engine", async () => {
    const engine = createTextEngine(
      {
        default: { provider: "offline" },
        workflows: { GoogleAdsWriter: { provider: "openai-compatible", model: "ads-model", baseURL: fake.baseURL } },
        timeoutMs: 10_000,
        maxRetries: 0,
      },
      { offlineDelayMs: 0, logger },
    );
    expect(engine.describe(request("BlogWriter")).engine).toBe("offline");
    expect(engine.describe(request("GoogleAdsWriter")).engine).toBe("ads-model");
    const run = engine.stream(request("GoogleAdsWriter"), signal());
    expect((await collect(run)).join("")).toBe(PLAN.join(""));
    expect(requestsFor("ads-model")).toHaveLength(1);
  });
});
