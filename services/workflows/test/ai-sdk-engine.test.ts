import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, describeError } from "@crafter/kit";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startCraft } from "../src/domain/craft";
import { buildGeneration, type GenerationRequest } from "../src/domain/prompt";
import { createAiSdkEngine } from "../src/generation/ai-sdk-engine";
import { blogWriter, profile } from "./fixtures";

/**
 * A small OpenAI-compatible server: POST /v1/chat/completions answers with SSE chunks, or with the
 * status the test asks for (the model name picks the behaviour).
 */
interface ChatRequest {
  model: string;
  stream: boolean;
  stream_options?: unknown;
  max_tokens?: number;
  messages: { role: string; content: unknown }[];
}

interface Received {
  authorization?: string;
  body: ChatRequest;
}

const received: Received[] = [];
let server: Server;
let baseURL: string;

const PLAN = [
  "## Title ideas\n",
  "- Starter 101\n",
  "- Wild Yeast, Tamed\n",
  "## Outline\n",
  "- Why it matters\n",
  "- Feeding\n",
];

function sse(res: ServerResponse, model: string, pieces: string[], hang = false) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    })}\n\n`;
  res.write(chunk({ role: "assistant", content: "" }, null));
  for (const piece of pieces) res.write(chunk({ content: piece }, null));
  if (hang) return; // keeps the stream open: the client has to abort
  res.write(chunk({}, "stop", { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 }));
  res.write("data: [DONE]\n\n");
  res.end();
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  let raw = "";
  for await (const part of req) raw += part;
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
    res.writeHead(404).end();
    return;
  }
  const body = JSON.parse(raw);
  received.push({ authorization: req.headers.authorization, body });
  if (body.model === "broken") {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }));
  } else if (body.model === "busy") {
    res.writeHead(429, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "slow down", type: "rate_limit" } }));
  } else if (body.model === "garbled") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end("data: {not json\n\n");
  } else if (body.model === "hang") {
    sse(res, body.model, ["Once upon"], true);
  } else {
    sse(res, body.model, PLAN);
  }
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const logger = createLogger("workflows-test", "silent");
const engineFor = (model: string, timeoutMs = 10_000) =>
  createAiSdkEngine({ baseURL, apiKey: "sk-test", model, timeoutMs, maxRetries: 0, logger });

function request(): GenerationRequest {
  const progress = startCraft(blogWriter, profile, new Date());
  const values = { topic: "Keeping a starter alive", keywords: ["starter"], audience: "home bakers", tone: "friendly" };
  return buildGeneration(blogWriter, blogWriter.steps[0]!, values, progress.steps, profile);
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

describe("the AI SDK engine against an OpenAI-compatible server", () => {
  it("streams the model's text as it arrives and records token usage", async () => {
    const engine = engineFor("tiny-model");
    const req = request();
    expect(engine.describe(req)).toEqual({ engine: "tiny-model", framework: "" });
    const run = engine.stream(req, new AbortController().signal);
    const chunks = await collect(run);
    expect(chunks).toEqual(PLAN);
    expect(run.usage).toEqual({ inputTokens: 42, outputTokens: 17 });

    const sent = received.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-test");
    expect(sent.body.model).toBe("tiny-model");
    expect(sent.body.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.body.max_tokens).toBe(800);
    expect(sent.body.messages[0]!).toEqual({ role: "system", content: req.system });
    expect(sent.body.messages[1]!.role).toBe("user");
    expect(JSON.stringify(sent.body.messages[1]!.content)).toContain("Topic: Keeping a starter alive");
  });

  it("maps a provider 500 to InternalServerError without leaking its message", async () => {
    const error = await failure(engineFor("broken").stream(request(), new AbortController().signal));
    expect(error.code).toBe("InternalServerError");
    expect(error.message).toBe("Something went wrong on our end. Please try again later.");
  });

  it("maps a provider 429 to RATE_LIMITED", async () => {
    const error = await failure(engineFor("busy").stream(request(), new AbortController().signal));
    expect(error.code).toBe("RATE_LIMITED");
  });

  it("maps a malformed stream to InternalServerError", async () => {
    const error = await failure(engineFor("garbled").stream(request(), new AbortController().signal));
    expect(error.code).toBe("InternalServerError");
  });

  it("maps a timeout to InternalServerError", async () => {
    const error = await failure(engineFor("hang", 300).stream(request(), new AbortController().signal));
    expect(error.code).toBe("InternalServerError");
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
});
