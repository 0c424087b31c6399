import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ProviderError, sendgridProvider } from "../src/mail/providers";

// A local server that speaks SendGrid's v3 Mail Send API: 202 with X-Message-Id for a valid
// request, 401 without the key, 400 for a malformed body, 429 when told to be busy.
interface Received {
  authorization: string;
  body: {
    personalizations: { to: { email: string }[]; custom_args?: Record<string, string> }[];
    from: { email: string; name?: string };
    subject: string;
    content: { type: string; value: string }[];
    headers?: Record<string, string>;
  };
}

const received: Received[] = [];
let busy = false;
let server: Server;
let baseUrl: string;

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (chunk) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const raw = await read(req);
    if (req.method !== "POST" || req.url !== "/v3/mail/send") return res.writeHead(404).end();
    if (req.headers.authorization !== "Bearer SG.test-key")
      return res.writeHead(401, { "content-type": "application/json" }).end('{"errors":[{"message":"unauthorized"}]}');
    if (busy) return res.writeHead(429).end('{"errors":[{"message":"too many requests"}]}');
    let body: Received["body"];
    try {
      body = JSON.parse(raw);
    } catch {
      return res.writeHead(400).end('{"errors":[{"message":"bad JSON"}]}');
    }
    if (!body.personalizations?.[0]?.to?.[0]?.email || !body.from?.email || !body.subject || !body.content?.length)
      return res.writeHead(400).end('{"errors":[{"message":"missing field"}]}');
    received.push({ authorization: req.headers.authorization, body });
    res.writeHead(202, { "x-message-id": `sg-${received.length}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const message = {
  to: "ann@example.test",
  subject: "Fresh bread",
  html: "<p>Hi</p>",
  text: "Hi",
  headers: { "List-Unsubscribe": "<https://app.test/u/t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  messageId: "<d1@app.test>",
  deliveryId: "d1",
};

describe("SendGrid v3 mail send", () => {
  it("posts the message with our delivery id and one-click headers, and answers SendGrid's message id", async () => {
    const provider = sendgridProvider({
      baseUrl,
      apiKey: "SG.test-key",
      from: "Crumb & Co. <news@crumb.test>",
      timeoutMs: 2000,
    });
    expect(await provider.send(message)).toEqual({ messageId: "sg-1" });
    const { body } = received[0]!;
    expect(body.personalizations[0]).toEqual({
      to: [{ email: "ann@example.test" }],
      custom_args: { delivery_id: "d1" },
    });
    expect(body.from).toEqual({ email: "news@crumb.test", name: "Crumb & Co." });
    expect(body.content).toEqual([
      { type: "text/plain", value: "Hi" },
      { type: "text/html", value: "<p>Hi</p>" },
    ]);
    expect(body.headers).toEqual(message.headers);
  });

  it("reports a refused key as permanent and a rate limit as worth retrying", async () => {
    const wrong = sendgridProvider({ baseUrl, apiKey: "SG.wrong", from: "a@b.test", timeoutMs: 2000 });
    const refused = await wrong.send(message).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as ProviderError).permanent).toBe(true);
    busy = true;
    const right = sendgridProvider({ baseUrl, apiKey: "SG.test-key", from: "a@b.test", timeoutMs: 2000 });
    const limited = await right.send(message).catch((error: unknown) => error);
    busy = false;
    expect((limited as ProviderError).permanent).toBe(false);
    expect((limited as ProviderError).message).toContain("429");
  });

  it("treats an unreachable API as worth retrying", async () => {
    const away = sendgridProvider({ baseUrl: "http://127.0.0.1:9", apiKey: "k", from: "a@b.test", timeoutMs: 500 });
    const error = await away.send(message).catch((e: unknown) => e);
    expect((error as ProviderError).permanent).toBe(false);
  });
});
