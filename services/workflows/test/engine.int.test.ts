// The workflow engine through the gateway, against the test stack (scripts/stack.mjs --profile
// test registers the hidden EngineCheck workflow): RunAction, generateInlineText,
// ReachedMaxResults, skip conditions, IteratorStep, a media step, editing an earlier step.
// Run: set -a; source .data/infra.env; source .data/stack/test/stack.env; set +a
//      npm run test:integration -- services/workflows/test/engine.int.test.ts
import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it } from "@jest/globals";

const session = new GatewaySession();
const api = "/api/workflowsV2";

beforeAll(async () => {
  const email = uniqueEmail("engine");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

async function newCraft(): Promise<string> {
  const created = await session.post(api, { workflowName: "EngineCheck" });
  expect(created.status).toBe(201);
  return created.body.result.craftId;
}

const stepOf = (craft: { steps: { name: string }[] }, name: string): any => craft.steps.find((s) => s.name === name);

describe("the workflow engine through /api/workflowsV2", () => {
  it("keeps the fixture workflow out of the headers", async () => {
    const headers = await session.get(`${api}/headers`);
    expect(headers.body.result.names).not.toContain("EngineCheck");
  });

  it("runs an action without completing the step until ReachedMaxResults, fitting platform limits", async () => {
    const craftId = await newCraft();
    const wrong = await session.post(`${api}/${craftId}/brief/FunctionCaller`, { params: { topic: "Bread" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("CR_ERR_BAD_REQUEST");
    const invalid = await session.post(`${api}/${craftId}/brief/TextGenerator`, { params: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toEqual({ topic: "Topic is required" });

    const first = await session.post(`${api}/${craftId}/brief/TextGenerator`, {
      params: { topic: "Slow-fermented sourdough for busy weeknights", channel: "blog" },
    });
    expect(first.status).toBe(200);
    const { result, meta, craft } = first.body.result;
    expect(result.format).toBe("list");
    expect(result.sections.titles.length).toBeGreaterThan(0);
    for (const title of result.sections.titles) expect(title.length).toBeLessThanOrEqual(20);
    expect(meta.warnings).toEqual([{ field: "keywords", message: "Add a keyword" }]);
    expect(stepOf(craft, "brief")).toMatchObject({ state: "InProgress", status: "inprogress" });
    expect(stepOf(craft, "brief").results).toHaveLength(1);
    expect(stepOf(craft, "extra").state).toBe("NotInitialized");

    const second = await session.post(`${api}/${craftId}/brief/TextGenerator`, { params: { keywords: ["bread"] } });
    expect(second.status).toBe(200);
    expect(stepOf(second.body.result.craft, "brief").results).toHaveLength(2);
    const third = await session.post(`${api}/${craftId}/brief/TextGenerator`, { params: {} });
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe("ReachedMaxResults");
    const complete = await session.put(`${api}/${craftId}/step/complete`, { stepName: "brief", values: {} });
    expect(complete.body.error.code).toBe("ReachedMaxResults");
  });

  it("hides inputs by showWhen, skips steps by skipWhen, and decides again after editing an earlier step", async () => {
    const craftId = await newCraft();
    const created = await session.get(`${api}/${craftId}`);
    const subject = stepOf(created.body.result, "brief").inputs.find((i: { name: string }) => i.name === "subject");
    expect(subject).toMatchObject({ hidden: true, showWhen: { ref: "values.channel", op: "==", value: "email" } });

    const needsSubject = await session.put(`${api}/${craftId}/step/complete`, {
      stepName: "brief",
      values: { topic: "Sourdough", channel: "email" },
    });
    expect(needsSubject.status).toBe(400);
    expect(needsSubject.body.error.fields).toEqual({ subject: "Subject line is required" });

    const email = await session.put(`${api}/${craftId}/step/complete`, {
      stepName: "brief",
      values: { topic: "Sourdough", channel: "email", subject: "Fresh loaves" },
    });
    expect(email.status).toBe(200);
    let craft = email.body.result.craft;
    expect(stepOf(craft, "extra")).toMatchObject({ state: "Completed", status: "skipped", skipped: true });
    expect(craft.currentStep).toBe("sections");
    expect(stepOf(craft, "sections").items.length).toBeGreaterThan(1);

    const blocked = await session.put(`${api}/${craftId}/step/complete`, { stepName: "extra", values: {} });
    expect(blocked.status).toBe(400);

    const edited = await session.post(`${api}/${craftId}/brief/editStep`, {});
    expect(edited.status).toBe(200);
    expect(stepOf(edited.body.result, "brief").state).toBe("InProgress");
    expect(stepOf(edited.body.result, "extra")).toMatchObject({ state: "NotStarted", status: "inprogress" });

    const blog = await session.put(`${api}/${craftId}/step/complete`, {
      stepName: "brief",
      values: { channel: "blog", subject: "dropped when hidden" },
    });
    expect(blog.status).toBe(200);
    craft = blog.body.result.craft;
    expect(stepOf(craft, "brief").values.subject).toBeUndefined();
    expect(stepOf(craft, "brief").results).toHaveLength(2);
    expect(stepOf(craft, "extra")).toMatchObject({ state: "InProgress", status: "inprogress" });
    expect(craft.currentStep).toBe("extra");
  });

  it("runs an IteratorStep once per item, completes the media step on open, and writes inline text", async () => {
    const craftId = await newCraft();
    await session.put(`${api}/${craftId}/step/complete`, {
      stepName: "brief",
      values: { topic: "Sourdough at home", channel: "blog", keywords: ["sourdough"] },
    });
    const extra = await session.put(`${api}/${craftId}/step/complete`, { stepName: "extra", values: {} });
    expect(extra.status).toBe(200);
    const items = stepOf(extra.body.result.craft, "sections").items;
    expect(items.length).toBeGreaterThan(1);
    expect(items.length).toBeLessThanOrEqual(3);

    const sections = await session.put(`${api}/${craftId}/step/complete`, { stepName: "sections", values: {} });
    expect(sections.status).toBe(200);
    const craft = sections.body.result.craft;
    const results = stepOf(craft, "sections").results;
    expect(results.map((r: { itemIndex: number }) => r.itemIndex)).toEqual(
      items.map((i: { index: number }) => i.index),
    );
    expect(results.map((r: { item: string }) => r.item)).toEqual(items.map((i: { item: string }) => i.item));
    expect(sections.body.result.meta.results).toBe(items.length);
    expect(stepOf(craft, "sections").items.every((i: { state: string }) => i.state === "Completed")).toBe(true);
    // Done when it opens (pictures are made on demand): it never holds up the craft.
    expect(stepOf(craft, "picture")).toMatchObject({ status: "completed", state: "Completed", results: [] });
    expect(craft.currentStep).toBe("editor");
    expect(stepOf(craft, "editor").action.commands).toEqual([{ name: "shorten", label: "Shorten" }]);

    const unknown = await session.post(`${api}/${craftId}/editor/generateInlineText`, { name: "expand", params: {} });
    expect(unknown.status).toBe(400);
    const body = await session.post(`${api}/${craftId}/editor/generateInlineText`, { name: "body", params: {} });
    expect(body.status).toBe(200);
    expect(body.body.result.text.length).toBeGreaterThan(0);
    expect(body.body.result.text.length).toBeLessThanOrEqual(200);
    expect(body.body.result.meta.engine).toBe("offline");
    const short = await session.post(`${api}/${craftId}/editor/generateInlineText`, {
      name: "shorten",
      params: { text: "A long paragraph about sourdough." },
    });
    expect(short.status).toBe(200);
    expect(short.body.result.text.length).toBeLessThanOrEqual(80);
    // Nothing is saved by inline generation; the step completes with its values.
    const done = await session.put(`${api}/${craftId}/step/complete`, {
      stepName: "editor",
      values: { body: short.body.result.text },
    });
    expect(done.status).toBe(200);
    expect(done.body.result.craft.state).toBe("Completed");
    expect(stepOf(done.body.result.craft, "editor").values.body).toBe(short.body.result.text);
  });

  it("streams RunAction over /rpc with the session cookie", async () => {
    const { createClient } = await import("@connectrpc/connect");
    const { createConnectTransport } = await import("@connectrpc/connect-node");
    const { WorkflowsService } = await import("@crafter/proto/crafter/workflows/v1/workflows_pb");
    const craftId = await newCraft();
    const cookie = [...session.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const client = createClient(
      WorkflowsService,
      createConnectTransport({
        baseUrl: `${gatewayUrl()}/rpc`,
        httpVersion: "1.1",
        interceptors: [
          (next) => (req) => {
            req.header.set("cookie", cookie);
            req.header.set("origin", gatewayUrl());
            return next(req);
          },
        ],
      }),
    );
    const cases: string[] = [];
    for await (const message of client.runAction({
      craftId,
      stepName: "brief",
      actionType: "TextGenerator",
      params: { topic: "Rye bread basics", channel: "blog" },
    })) {
      cases.push(message.event.case ?? "");
    }
    expect(cases[0]).toBe("started");
    expect(cases.filter((c) => c === "delta").length).toBeGreaterThan(1);
    expect(cases.at(-1)).toBe("completed");
    const craft = await session.get(`${api}/${craftId}`);
    expect(stepOf(craft.body.result, "brief").results).toHaveLength(1);
    expect(stepOf(craft.body.result, "brief").state).toBe("InProgress");
  });
});
