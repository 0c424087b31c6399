import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it } from "@jest/globals";

// The gateway's side of the engine routes: body validation, sessions and error envelopes of
// POST /api/workflowsV2/{id}/{stepName}/generateInlineText and …/{stepName}/{actionType}.

const session = new GatewaySession();
const missing = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  const email = uniqueEmail("engine-gw");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

describe("engine routes of /api/workflowsV2", () => {
  it("needs a session", async () => {
    const anonymous = new GatewaySession();
    const run = await anonymous.post(`/api/workflowsV2/${missing}/topic/TextGenerator`, { params: {} });
    expect(run.status).toBe(401);
    const inline = await anonymous.post(`/api/workflowsV2/${missing}/topic/generateInlineText`, { name: "x" });
    expect(inline.status).toBe(401);
  });

  it("checks the body before calling the engine", async () => {
    const inline = await session.post(`/api/workflowsV2/${missing}/topic/generateInlineText`, { params: {} });
    expect(inline.status).toBe(400);
    expect(inline.body.error).toMatchObject({ code: "CR_ERR_BAD_REQUEST", fields: { name: "name is required" } });
    const run = await session.post(`/api/workflowsV2/${missing}/topic/TextGenerator`, { params: "nope" });
    expect(run.status).toBe(400);
    expect(run.body.error.code).toBe("CR_ERR_BAD_REQUEST");
  });

  it("answers an unknown craft with 404 on both routes", async () => {
    const run = await session.post(`/api/workflowsV2/${missing}/topic/TextGenerator`, { params: {} });
    expect(run.status).toBe(404);
    expect(run.body.error.code).toBe("NOT_FOUND");
    const inline = await session.post(`/api/workflowsV2/${missing}/topic/generateInlineText`, { name: "body" });
    expect(inline.status).toBe(404);
  });

  it("runs BlogWriter's topic action without completing the step, and refuses a kind it does not have", async () => {
    const created = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
    const craftId = created.body.result.craftId;
    const wrong = await session.post(`/api/workflowsV2/${craftId}/topic/promptWriterAction`, { params: {} });
    expect(wrong.status).toBe(400);
    const run = await session.post(`/api/workflowsV2/${craftId}/topic/TextGenerator`, {
      params: { topic: "Sourdough for beginners", tone: "friendly" },
    });
    expect(run.status).toBe(200);
    expect(run.body.result.result.format).toBe("list");
    expect(run.body.result.craft.currentStep).toBe("topic");
    expect(run.body.result.craft.steps[0].state).toBe("InProgress");
    expect(run.body.result.craft.steps[1].state).toBe("NotInitialized");
  });
});
