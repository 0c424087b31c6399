import { GatewaySession, linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { type FakeAi, PLAN, startFakeAi } from "../../workflows/test/fake-ai-server";

// How provider failures reach the user, through the gateway and the real workflows service
// pointed at a local OpenAI-compatible server. The stack must be started with (port = 28399 +
// STACK_PORT_OFFSET, or FAKE_AI_PORT):
//   AI_PROVIDER=offline AI_BASE_URL=http://127.0.0.1:<port>/v1 AI_TIMEOUT_MS=3000 AI_MAX_RETRIES=1
//   AI_WORKFLOW_MODELS='{"BlogWriter":"openai-compatible:fake-blog","Assistant":"openai-compatible:fake-chat","ImagePromptWriter":"openai-compatible:fake-prompts"}'
// (craft-management.int.test.ts wants a stack without AI_* settings instead).

const port = Number(stackEnv().FAKE_AI_PORT ?? 28399 + Number(process.env.STACK_PORT_OFFSET ?? 0));
// Retries with backoff on a busy shared machine: allow time.
jest.setTimeout(60_000);

const session = new GatewaySession();
let fake: FakeAi;

beforeAll(async () => {
  fake = await startFakeAi(port);
  const email = uniqueEmail("ai");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

afterAll(() => fake.close());

const chat = () => session.post("/api/assistant/chat", { messages: [{ content: "Name my sourdough loaf" }] });

describe("a configured provider, through the gateway", () => {
  it("answers with the model's streamed text, sends the conversation, and names the model", async () => {
    fake.mode = undefined;
    fake.pieces = ["Call it ", "“Morning Crumb”."];
    const before = fake.received.length;
    const reply = await chat();
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({
      message: { type: "answer", content: "Call it “Morning Crumb”." },
      engine: "fake-chat",
    });
    const sent = fake.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.model).toBe("fake-chat");
    expect(JSON.stringify(sent[0]!.body.messages)).toContain("User: Name my sourdough loaf");
  });

  it("parses image prompts the model writes", async () => {
    fake.mode = undefined;
    fake.pieces = ["## Prompts\n", "- A rye loaf on a linen cloth\n", "- Flour dust in morning light\n"];
    const prompts = await session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
      content: "<p>Our rye is back.</p>",
      imageGenerationModel: "dalle",
    });
    expect(prompts.status).toBe(200);
    expect(prompts.body.result).toEqual({
      prompts: ["A rye loaf on a linen cloth", "Flour dust in morning light"],
      engine: "fake-prompts",
    });
  });

  it("429 after the retries → 429 RATE_LIMITED with a retryable message", async () => {
    fake.mode = "busy";
    const before = fake.received.length;
    const reply = await chat();
    expect(reply.status).toBe(429);
    expect(reply.body).toMatchObject({
      success: false,
      errorMessage: "The AI service is busy right now. Please wait a moment and try again.",
      error: { code: "RATE_LIMITED" },
    });
    expect(fake.received.length - before).toBe(2); // AI_MAX_RETRIES=1
  });

  it("500 after the retries → 503 UNAVAILABLE with Retry-After, the provider's message withheld", async () => {
    fake.mode = "broken";
    const reply = await chat();
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({
      errorMessage: "The AI service cannot be reached right now. Please try again in a moment.",
      error: { code: "UNAVAILABLE" },
    });
    expect(JSON.stringify(reply.body)).not.toContain("upstream exploded");
  });

  it("a provider that never finishes → 503 with a timeout message", async () => {
    fake.mode = "hang";
    const reply = await chat();
    expect(reply.status).toBe(503);
    expect(reply.body.errorMessage).toBe("The AI service took too long to answer. Please try again.");
  });

  it("empty or list-less output → 422 ConflictingInputError", async () => {
    fake.mode = "empty";
    const empty = await chat();
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe("ConflictingInputError");
    fake.mode = "prose";
    fake.pieces = [];
    const prose = await session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
      content: "<p>Our rye is back.</p>",
      imageGenerationModel: "imagen",
    });
    // "prose" has no list items; every line of it would be one prompt only if it were a list.
    expect(prose.status).toBe(422);
    expect(prose.body.errorMessage).toBe(
      "The AI could not write a usable draft from these inputs. Please review or add details and try again.",
    );
  });

  it("completes a craft step with the provider's text and records its token usage", async () => {
    fake.mode = undefined;
    fake.pieces = [...PLAN];
    const craftId = (await session.post("/api/workflowsV2", { workflowName: "BlogWriter" })).body.result.craftId;
    const done = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "topic",
      values: { topic: "Keeping a starter alive", keywords: ["starter"] },
    });
    expect(done.status).toBe(200);
    expect(done.body.result.result).toMatchObject({
      engine: "fake-blog",
      format: "list",
      sections: { titles: ["Starter 101", "Wild Yeast, Tamed"], outline: ["Why it matters", "Feeding"] },
      usage: { inputTokens: 42, outputTokens: 17 },
    });
    expect(done.body.result.meta).toMatchObject({ engine: "fake-blog", usage: { inputTokens: 42, outputTokens: 17 } });
    expect(done.body.result.result.note).toBeUndefined();
    expect(JSON.stringify(fake.received.at(-1)!.body.messages)).toContain("Keeping a starter alive");
  });

  it("a failing provider fails the step with its code and saves nothing", async () => {
    const craftId = (await session.post("/api/workflowsV2", { workflowName: "BlogWriter" })).body.result.craftId;
    const before = (await session.get(`/api/workflowsV2/${craftId}`)).body.result;
    const values = { topic: "Rye", keywords: [] };
    fake.mode = "busy";
    const busy = await session.put(`/api/workflowsV2/${craftId}/step/complete`, { stepName: "topic", values });
    expect(busy.status).toBe(429);
    expect(busy.body.error.code).toBe("RATE_LIMITED");
    fake.mode = "prose";
    const prose = await session.put(`/api/workflowsV2/${craftId}/step/complete`, { stepName: "topic", values });
    expect(prose.status).toBe(422);
    expect(prose.body.error.code).toBe("ConflictingInputError");
    const after = (await session.get(`/api/workflowsV2/${craftId}`)).body.result;
    expect(after.steps.map((step: any) => [step.state, step.results])).toEqual(
      before.steps.map((step: any) => [step.state, step.results]),
    );
  });
});

describe("the brand voice reaches the provider outside crafts too", () => {
  const VOICE = {
    tone: "cheerful and down-to-earth",
    wordsToUse: ["stone-baked"],
    wordsToAvoid: ["artisanal"],
    exampleCopy: "Warm rye, straight from our oven to your table.",
  };
  let profileId = "";

  beforeAll(async () => {
    const created = await session.post("/api/projects/createProject", {
      name: "Rye & Shine",
      description: "A neighbourhood bakery baking rye every morning.",
    });
    expect(created.status).toBe(201);
    const projectId = created.body.result.project.projectId;
    profileId = created.body.result.project.profileId;
    // Its first project is the user's active one.
    expect((await session.get("/api/projects/active-project")).body.result).toMatchObject({ projectId });
    expect((await session.put(`/api/projects/${projectId}/brand-voice`, VOICE)).status).toBe(200);
  });

  /** The system prompt of the one provider request `work` made. */
  async function systemPromptOf(work: () => Promise<{ status: number }>): Promise<string> {
    const before = fake.received.length;
    expect((await work()).status).toBe(200);
    const sent = fake.received.slice(before);
    expect(sent).toHaveLength(1);
    return sent[0]!.body.messages.find((message: { role: string }) => message.role === "system").content;
  }

  const expectVoice = (system: string) => {
    expect(system).toContain("- Tone: cheerful and down-to-earth");
    expect(system).toContain("use where they fit: stone-baked");
    expect(system).toContain("Never use these words or phrases, in any form: artisanal");
    expect(system).toContain("Warm rye, straight from our oven to your table.");
  };

  it("the assistant writes in the active project's voice", async () => {
    fake.mode = undefined;
    fake.pieces = ["Try “Rye Sunrise”."];
    const system = await systemPromptOf(chat);
    expect(system).toContain("You are Crafter's assistant.");
    expectVoice(system);
  });

  it("the image prompt writer writes in the voice of the profile's project, and of the active project for a document", async () => {
    fake.mode = undefined;
    fake.pieces = ["## Prompts\n", "- A rye loaf cooling on a stone hearth\n"];
    const fromProfile = await systemPromptOf(() =>
      session.post("/api/profiles/profileImagePromptWriter", {
        profileId,
        isBusinessProfile: true,
        imageGenerationModel: "imagen",
      }),
    );
    expect(fromProfile).toContain("You write prompts for an AI image generator");
    expectVoice(fromProfile);
    const fromDocument = await systemPromptOf(() =>
      session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
        content: "<p>Our rye is back.</p>",
        imageGenerationModel: "dalle",
      }),
    );
    expectVoice(fromDocument);
  });
});
