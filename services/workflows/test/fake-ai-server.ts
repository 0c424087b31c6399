import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small server speaking the providers' streaming protocols, for tests:
 * - OpenAI chat completions (`POST <base>/chat/completions`, SSE `chat.completion.chunk`s ending in
 *   a usage chunk and `[DONE]`, or one `chat.completion` when the request has no `stream: true`), used
 *   by the openai and openai-compatible providers;
 * - Gemini (`POST <base>/models/<model>:streamGenerateContent?alt=sse`).
 * An API key starting "sk-bad" gets 401. The model name picks the behaviour: `broken` 500, `busy` 429, `busy-once` 429 then a normal
 * answer, `garbled` a stream that is not JSON, `hang` a stream that never ends, `empty` a stream
 * without text, `prose` text with no list items, `slow` 25 pieces 40 ms apart; any other model
 * streams `pieces`. Setting `mode`
 * picks the behaviour for every model (for a service whose model name is fixed by its config).
 */
export interface FakeAi {
  /** e.g. http://127.0.0.1:1234/v1 */
  baseURL: string;
  /** Every request, in order. */
  received: { path: string; authorization?: string; googKey?: string; body: any }[];
  /** The text pieces a normal answer streams (changeable per test). */
  pieces: string[];
  usage: { input: number; output: number };
  mode?: string;
  close(): Promise<void>;
}

export const PLAN = [
  "## Title ideas\n",
  "- Starter 101\n",
  "- Wild Yeast, Tamed\n",
  "## Outline\n",
  "- Why it matters\n",
  "- Feeding\n",
];

export async function startFakeAi(port = 0): Promise<FakeAi> {
  const fake: FakeAi = {
    baseURL: "",
    received: [],
    pieces: [...PLAN],
    usage: { input: 42, output: 17 },
    close: async () => undefined,
  };
  const busyOnce = new Set<string>();

  const openAiChunk = (model: string, delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    })}\n\n`;
  const geminiChunk = (text: string, finish?: string) =>
    `data: ${JSON.stringify({
      candidates: [
        { content: { parts: [{ text }], role: "model" }, index: 0, ...(finish ? { finishReason: finish } : {}) },
      ],
      ...(finish
        ? {
            usageMetadata: {
              promptTokenCount: fake.usage.input,
              candidatesTokenCount: fake.usage.output,
              totalTokenCount: fake.usage.input + fake.usage.output,
            },
          }
        : {}),
    })}\n\n`;

  function pieces(model: string): string[] {
    if (model.startsWith("empty")) return [];
    if (model.startsWith("prose")) return ["I would rather ", "not make a list today."];
    return fake.pieces;
  }

  async function slow(res: ServerResponse, model: string) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (let i = 0; i < 25; i++) {
      res.write(openAiChunk(model, { content: `${i} ` }, null));
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    res.write(openAiChunk(model, {}, "stop", { prompt_tokens: 1, completion_tokens: 25, total_tokens: 26 }));
    res.end("data: [DONE]\n\n");
  }

  /** A whole `chat.completion`, for a client that did not ask to stream (generateText). */
  function complete(res: ServerResponse, model: string) {
    res.writeHead(200, { "content-type": "application/json" });
    if (model.startsWith("hang")) return; // never answers: the client has to give up
    res.end(
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: pieces(model).join("") }, finish_reason: "stop" }],
        usage: {
          prompt_tokens: fake.usage.input,
          completion_tokens: fake.usage.output,
          total_tokens: fake.usage.input + fake.usage.output,
        },
      }),
    );
  }

  function stream(res: ServerResponse, model: string, gemini: boolean) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const text = pieces(model);
    const hang = model.startsWith("hang");
    if (gemini) {
      for (const piece of hang ? ["Once upon"] : text) res.write(geminiChunk(piece));
      if (hang) return;
      res.end(geminiChunk("", "STOP"));
      return;
    }
    res.write(openAiChunk(model, { role: "assistant", content: "" }, null));
    for (const piece of hang ? ["Once upon"] : text) res.write(openAiChunk(model, { content: piece }, null));
    if (hang) return; // keeps the stream open: the client has to give up
    res.write(
      openAiChunk(model, {}, "stop", {
        prompt_tokens: fake.usage.input,
        completion_tokens: fake.usage.output,
        total_tokens: fake.usage.input + fake.usage.output,
      }),
    );
    res.end("data: [DONE]\n\n");
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const part of req) raw += part;
    const path = (req.url ?? "").split("?")[0]!;
    const geminiModel = path.match(/\/models\/([^/:]+):streamGenerateContent$/)?.[1];
    if (req.method !== "POST" || (!path.endsWith("/chat/completions") && !geminiModel)) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw);
    fake.received.push({
      path,
      authorization: req.headers.authorization,
      googKey: req.headers["x-goog-api-key"] as string | undefined,
      body,
    });
    const model: string = fake.mode ?? geminiModel ?? body.model;
    // A key starting "sk-bad" is refused as OpenAI and Gemini refuse a wrong key.
    const key =
      (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "") || (req.headers["x-goog-api-key"] as string) || "";
    if (key.startsWith("sk-bad")) {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
        }),
      );
      return;
    }
    if (model.startsWith("broken")) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "upstream exploded", type: "server_error", code: 500 } }));
    } else if (model.startsWith("busy") && (model !== "busy-once" || !busyOnce.has(model))) {
      busyOnce.add(model);
      res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "10" });
      res.end(JSON.stringify({ error: { message: "slow down", type: "rate_limit", code: 429 } }));
    } else if (model.startsWith("slow")) {
      await slow(res, model);
    } else if (model.startsWith("garbled")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end("data: {not json\n\n");
    } else if (geminiModel === undefined && body.stream !== true) {
      complete(res, model);
    } else {
      stream(res, model, geminiModel !== undefined);
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return fake;
}
