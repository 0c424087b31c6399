import { databaseName } from "@crafter/kit";
import { type GatewaySession, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";
import { type FakeAi, PLAN, startFakeAi } from "../../workflows/test/fake-ai-server";

// The AI settings page's API and a user's own provider, through the gateway and the real
// workflows and projects services, against the local OpenAI-compatible fake (started here on a
// free port; the stack pins 127.0.0.1 in AI_SETTINGS_RESOLVE, scripts/stack.mjs). The stack itself
// runs with no server provider (offline), as every integration stack does.

jest.setTimeout(60_000);

const GOOD_KEY = "sk-good-abcdefgh4321";
const BAD_KEY = "sk-bad-zyxwvuts9876";

let fake: FakeAi;
let owner: GatewaySession;
let projectId = "";
/** Every answer the owner got, to check no key ever came back. */
const seen: string[] = [];

async function call(method: string, path: string, body?: unknown, who: GatewaySession = owner) {
  const response = await who.request(method, path, body);
  seen.push(JSON.stringify(response.body));
  return response;
}

beforeAll(async () => {
  fake = await startFakeAi(0);
  owner = (await verifiedSession("ai-settings")).session;
  const created = await call("POST", "/api/projects/createProject", {
    name: "Crumb & Co",
    description: "A small bakery baking rye and spelt loaves every morning.",
  });
  expect(created.status).toBe(201);
  projectId = created.body.result.project.projectId;
});

afterAll(async () => {
  await fake.close();
  const all = seen.join("\n");
  expect(all).not.toContain(GOOD_KEY);
  expect(all).not.toContain(BAD_KEY);
});

const settingsBody = (apiKey: string) => ({
  provider: "openai-compatible",
  baseUrl: fake.baseURL,
  defaultModel: "fake-default",
  workflowModels: { BlogWriter: "fake-blog" },
  apiKey,
});

async function completeTopic(topic: string) {
  const craftId = (await call("POST", "/api/workflowsV2", { workflowName: "BlogWriter", projectId })).body.result
    .craftId;
  return call("PUT", `/api/workflowsV2/${craftId}/step/complete`, {
    stepName: "topic",
    values: { topic, keywords: ["rye"] },
  });
}

describe("AI settings for an owner", () => {
  it("starts with none saved, and settings can be saved on this server", async () => {
    const got = await call("GET", "/api/settings/ai");
    expect(got.status).toBe(200);
    expect(got.body.result).toEqual({ settings: null, available: true });
  });

  it("Test connection with a bad key reports the provider's refusal in plain words, without the key", async () => {
    const before = fake.received.length;
    const tested = await call("POST", "/api/settings/ai/test", {
      provider: "openai-compatible",
      baseUrl: fake.baseURL,
      model: "fake-default",
      apiKey: BAD_KEY,
    });
    expect(tested.status).toBe(200);
    expect(tested.body.result).toMatchObject({ ok: false, latencyMs: 0 });
    expect(tested.body.result.message).toBe(
      'The provider refused the API key (HTTP 401). The provider said: "Incorrect API key provided"',
    );
    expect(fake.received.slice(before).map((r) => r.authorization)).toEqual([`Bearer ${BAD_KEY}`]);
  });

  it("Test connection with a good key makes one small real call and says so", async () => {
    const before = fake.received.length;
    const tested = await call("POST", "/api/settings/ai/test", {
      provider: "openai-compatible",
      baseUrl: fake.baseURL,
      model: "fake-default",
      apiKey: GOOD_KEY,
    });
    expect(tested.body.result).toMatchObject({ ok: true });
    expect(tested.body.result.message).toMatch(/^Connected: fake-default answered in \d+ ms\.$/);
    const sent = fake.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ authorization: `Bearer ${GOOD_KEY}`, body: { model: "fake-default" } });
  });

  it("refuses a private address the operator did not allow, and a wrong field, by name", async () => {
    const privateUrl = await call("POST", "/api/settings/ai/test", {
      provider: "openai-compatible",
      baseUrl: "http://10.0.0.1:11434/v1",
      model: "llama3.1",
      apiKey: "",
    });
    expect(privateUrl.body.result.ok).toBe(false);
    expect(privateUrl.body.result.message).toContain("This address is private");
    const missing = await call("PUT", "/api/settings/ai", { ...settingsBody(""), provider: "openai" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ apiKey: "Enter the provider's API key." });
  });

  it("saves the key sealed: only 'set' and its last 4 characters come back, now and later", async () => {
    const saved = await call("PUT", "/api/settings/ai", settingsBody(GOOD_KEY));
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({
      provider: "openai-compatible",
      baseUrl: fake.baseURL,
      defaultModel: "fake-default",
      workflowModels: { BlogWriter: "fake-blog" },
      keySet: true,
      keyLast4: "4321",
    });
    const again = await call("GET", "/api/settings/ai");
    expect(again.body.result.settings).toEqual(saved.body.result);
    // Stored sealed: the database holds no plaintext key either.
    const connection = await mongoose
      .createConnection(stackEnv().MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: databaseName(stackEnv().CRAFTER_NAMESPACE!, "workflows"),
      })
      .asPromise();
    try {
      const docs = await connection.collection("ai_settings").find({ keyLast4: "4321" }).toArray();
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) {
        expect(JSON.stringify(doc)).not.toContain(GOOD_KEY);
        // Sealed by the kit's key ring: v2.<key id>.<iv>.<tag>.<ciphertext>
        expect(doc.keySealed).toMatch(/^v2\.[^.]+\.[^.]+\.[^.]+\.[^.]+$/);
      }
    } finally {
      await connection.close();
    }
  });

  it("generates through the user's provider, key and per-workflow model, with the brand voice in the system prompt", async () => {
    const voice = await call("PUT", `/api/projects/${projectId}/brand-voice`, {
      tone: "warm and plain-spoken",
      wordsToUse: ["handmade"],
      wordsToAvoid: ["cheap"],
      exampleCopy: "Loaves baked before you wake.",
    });
    expect(voice.status).toBe(200);
    expect((await call("GET", `/api/projects/${projectId}/brand-voice`)).body.result).toEqual(voice.body.result);

    fake.mode = undefined;
    fake.pieces = [...PLAN];
    const before = fake.received.length;
    const done = await completeTopic("Keeping a rye starter alive");
    expect(done.status).toBe(200);
    expect(done.body.result.result).toMatchObject({ engine: "fake-blog", format: "list" });
    const sent = fake.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.authorization).toBe(`Bearer ${GOOD_KEY}`);
    expect(sent[0]!.body.model).toBe("fake-blog");
    const system = sent[0]!.body.messages.find((message: { role: string }) => message.role === "system").content;
    expect(system).toContain("- Tone: warm and plain-spoken");
    expect(system).toContain("use where they fit: handmade");
    expect(system).toContain("Never use these words or phrases, in any form: cheap");
    expect(system).toContain("Loaves baked before you wake.");
  });

  it("other workflows use the default model (the assistant)", async () => {
    fake.pieces = ["Call it ", "Dawn Rye."];
    const before = fake.received.length;
    const reply = await call("POST", "/api/assistant/chat", { messages: [{ content: "Name my loaf" }] });
    expect(reply.status).toBe(200);
    expect(reply.body.result.engine).toBe("fake-default");
    expect(fake.received.slice(before)[0]).toMatchObject({ authorization: `Bearer ${GOOD_KEY}` });
  });

  it("a saved bad key fails generation with the catalogue's clear error (502), never a 500", async () => {
    expect((await call("PUT", "/api/settings/ai", settingsBody(BAD_KEY))).body.result.keyLast4).toBe("9876");
    const failed = await completeTopic("Rye in winter");
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({
      success: false,
      errorMessage: "The AI service refused the request. An owner or admin can check the AI settings.",
      error: { code: "AI_PROVIDER_ERROR" },
    });
  });

  it("without saved settings the offline engine writes again, and never a word to avoid", async () => {
    expect((await call("DELETE", "/api/settings/ai")).body.result).toEqual({ deleted: true });
    expect((await call("GET", "/api/settings/ai")).body.result.settings).toBeNull();
    const before = fake.received.length;
    const done = await completeTopic("Cheap rye bread that tastes handmade");
    expect(done.status).toBe(200);
    expect(done.body.result.result.engine).toBe("offline");
    expect(JSON.stringify(done.body.result.result)).not.toMatch(/cheap/i);
    expect(fake.received.length).toBe(before);
  });
});

describe("AI settings for other roles", () => {
  it("refuses a user who is neither owner nor admin (403), on every route", async () => {
    const { session, email } = await verifiedSession("ai-tester");
    const connection = await mongoose
      .createConnection(stackEnv().MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: databaseName(stackEnv().CRAFTER_NAMESPACE!, "auth"),
      })
      .asPromise();
    try {
      await connection.collection("users").updateOne({ email }, { $set: { role: "tester" } });
    } finally {
      await connection.close();
    }
    // The role is in the token: sign in again for one that says "tester".
    expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
    for (const [method, path, body] of [
      ["GET", "/api/settings/ai", undefined],
      ["PUT", "/api/settings/ai", settingsBody(GOOD_KEY)],
      ["DELETE", "/api/settings/ai", undefined],
      ["POST", "/api/settings/ai/test", { provider: "openai", baseUrl: "", model: "gpt-4o-mini", apiKey: GOOD_KEY }],
    ] as const) {
      const refused = await call(method, path, body, session);
      expect(`${method} ${path} ${refused.status} ${refused.body.error?.code}`).toBe(`${method} ${path} 403 FORBIDDEN`);
    }
  });
});

describe("Test connection's rate limit", () => {
  it("allows 10 tests per user in 10 minutes; the 11th is 429 RATE_LIMITED with Retry-After and calls no provider", async () => {
    const { session } = await verifiedSession("ai-limit");
    const body = { provider: "openai-compatible", baseUrl: fake.baseURL, model: "fake-default", apiKey: BAD_KEY };
    const before = fake.received.length;
    for (let i = 1; i <= 10; i++) {
      const tested = await call("POST", "/api/settings/ai/test", body, session);
      expect(`${i}: ${tested.status} ${tested.body.result?.ok}`).toBe(`${i}: 200 false`);
    }
    expect(fake.received.length - before).toBe(10);
    const limited = await call("POST", "/api/settings/ai/test", body, session);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      success: false,
      errorMessage: "Too many attempts. Please wait a moment and try again.",
      error: { code: "RATE_LIMITED" },
    });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(limited.headers.get("ratelimit-policy")).toBe('"ai-test-connection";q=10;w=600');
    expect(fake.received.length - before).toBe(10);
    // Per user: the owner, who tested before, still can.
    const other = await call("POST", "/api/settings/ai/test", body);
    expect(other.status).toBe(200);
  });
});
