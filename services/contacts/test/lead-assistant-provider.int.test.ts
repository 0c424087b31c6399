import { gatewayUrl, stackEnv } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { type FakeAi, startFakeAi } from "../../workflows/test/fake-ai-server";
import { userWithProject } from "./helpers";

// The lead assistant with an AI provider: the real contacts service pointed at a local server that
// speaks OpenAI's chat completions (scripts/test-stack.sh's ai-provider suite starts contacts with
//   AI_BASE_URL=http://127.0.0.1:<28399 + STACK_PORT_OFFSET>/v1 AI_MODEL=fake-lead AI_TIMEOUT_MS=3000
// ). What a visitor on the business's site sends reaches the provider with the business's own text,
// the provider's answer comes back, and a failing or hanging provider still gets the visitor an
// answer from the profile's text, never an error.

const port = Number(stackEnv().FAKE_AI_PORT ?? 28399 + Number(process.env.STACK_PORT_OFFSET ?? 0));
jest.setTimeout(60_000);

let fake: FakeAi;
let assistantId: string;

/** A visitor's message from the business's site (no cookie). */
async function visit(message: string, sessionId = "") {
  const response = await fetch(`${gatewayUrl()}/api/public/assistants/${assistantId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://bakery.example" },
    body: JSON.stringify({ sessionId, message }),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  fake = await startFakeAi(port);
  const { session } = await userWithProject("lead-ai");
  const saved = await session.put("/api/leads/assistant", {
    greeting: "Hi! Ask us about our bread.",
    questions: ["Which loaf do you like best?"],
    tone: "professional",
    enabled: true,
  });
  expect(saved.status).toBe(200);
  assistantId = saved.body.result.id;
});

afterAll(() => fake.close());

describe("the lead assistant with a provider", () => {
  it("answers with the provider's text, sent the business's own information, tone and questions", async () => {
    fake.mode = undefined;
    fake.pieces = ["Yes, we bake ", "rye every Tuesday."];
    const before = fake.received.length;
    const first = await visit("Do you bake rye bread?");
    expect(first.status).toBe(200);
    expect(first.body.result.reply).toBe("Yes, we bake rye every Tuesday.");

    const sent = fake.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.model).toBe("fake-lead");
    const [system, ...conversation] = sent[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("Crumb & Co. Bakery");
    expect(system!.content).toContain("naturally leavened bread");
    expect(system!.content).toContain("Tone: professional");
    expect(system!.content).toContain("Which loaf do you like best?");
    expect(conversation.at(-1)).toEqual({ role: "user", content: "Do you bake rye bread?" });

    // The second message carries the conversation so far, the greeting and the first answer included.
    fake.pieces = ["Our seeded rye is the favourite."];
    const second = await visit("Which one is best?", first.body.result.sessionId);
    expect(second.body.result.reply).toBe("Our seeded rye is the favourite.");
    const history = (fake.received.at(-1)!.body.messages as Array<{ role: string; content: string }>).slice(1);
    expect(history).toEqual([
      { role: "assistant", content: "Hi! Ask us about our bread." },
      { role: "user", content: "Do you bake rye bread?" },
      { role: "assistant", content: "Yes, we bake rye every Tuesday." },
      { role: "user", content: "Which one is best?" },
    ]);
  });

  it("answers from the business's own text when the provider fails", async () => {
    fake.mode = "broken";
    const reply = await visit("Do you bake sourdough bread?");
    expect(reply.status).toBe(200);
    expect(reply.body.result.reply).toMatch(/sourdough/i);
    expect(reply.body.result.reply).not.toContain("upstream exploded");
  });

  it("gives up on a provider that never finishes within AI_TIMEOUT_MS and still answers", async () => {
    fake.mode = "hang";
    const started = Date.now();
    const reply = await visit("Do you bake sourdough bread?");
    expect(reply.status).toBe(200);
    expect(reply.body.result.reply).toMatch(/sourdough/i);
    // AI_TIMEOUT_MS=3000 on this stack; the gateway's own deadline is far longer.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
