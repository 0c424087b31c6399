// The workflows service for real: auth, projects and workflows running (scripts/infra + the
// services, addresses from the environment or .data/*.env), FerretDB, Redis and Kafka behind them.
// Run: NODE_OPTIONS=--experimental-vm-modules npx jest --selectProjects integration services/workflows
import { randomUUID } from "node:crypto";
import { fromBinary, type JsonObject } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { createKafka, createLogger, createServiceClient, describeError, TOPICS, topicName } from "@crafter/kit";
import { linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import {
  CraftCompletedSchema,
  CraftCreatedSchema,
  GenerationUsedSchema,
} from "@crafter/proto/crafter/events/v1/events_pb";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import {
  type CompleteStepResponse,
  type Craft,
  WorkflowsService,
} from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter";
const timeoutMs = 30_000;
const auth = createServiceClient(AuthService, env.AUTH_URL ?? "http://127.0.0.1:50051", { timeoutMs });
const projects = createServiceClient(ProjectsService, env.PROJECTS_URL ?? "http://127.0.0.1:50053", { timeoutMs });
const workflows = createServiceClient(WorkflowsService, env.WORKFLOWS_URL ?? "http://127.0.0.1:50054", { timeoutMs });

// Signing in waits for the verification mail (Kafka, notifications, Mailpit).
jest.setTimeout(60_000);

async function signIn(): Promise<string> {
  const email = uniqueEmail("wf");
  await auth.signUp({ email, password: "correct horse battery", displayName: "Workflow Tester" });
  // Services refuse unverified users: verify from the mail first.
  const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
  await auth.verifyEmail({ token: link.searchParams.get("token")! });
  const { session } = await auth.signIn({ email, password: "correct horse battery", ip: "127.0.0.1" });
  return session!.accessToken;
}

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; fields?: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    return describeError(error);
  }
  throw new Error("the call succeeded");
}

interface Streamed {
  started?: { engine: string; framework: string };
  text: string;
  deltas: number;
  completed?: { result?: JsonObject; meta?: JsonObject; craft?: Craft };
}

async function complete(
  client: Client<typeof WorkflowsService>,
  token: string,
  request: { craftId: string; stepName: string; values?: JsonObject; buffered?: boolean },
  onEvent?: (event: CompleteStepResponse, so: Streamed) => void | Promise<void>,
): Promise<Streamed> {
  const so: Streamed = { text: "", deltas: 0 };
  for await (const message of client.completeStep(request, as(token))) {
    if (message.event.case === "started") so.started = message.event.value;
    if (message.event.case === "delta") {
      so.text += message.event.value.text;
      so.deltas++;
    }
    if (message.event.case === "completed") so.completed = message.event.value;
    await onEvent?.(message, so);
  }
  return so;
}

interface StepJson extends JsonObject {
  name: string;
  state: string;
  status: string;
  values: JsonObject;
  results: JsonObject[];
}

const step = (craft: Craft, name: string) => craft.steps.find((candidate) => candidate.name === name) as StepJson;

describe("workflows service", () => {
  let token: string;
  let projectId: string;
  let craftId: string;

  beforeAll(async () => {
    token = await signIn();
    const created = await projects.createProject(
      {
        name: "Crumb & Co",
        description: "We bake slow-fermented sourdough in small batches in Leeds.",
        audience: "home bakers",
        keywords: ["sourdough starter", "wild yeast"],
        websiteUrl: "https://crumb.example.com",
      },
      as(token),
    );
    projectId = created.project!.projectId;
  });

  it("answers GetHeaders with every workflow available", async () => {
    const headers = await workflows.getHeaders({}, as(token));
    expect(headers.names).toHaveLength(25);
    expect(headers.headers.find((header) => header.name === "BlogWriter")).toMatchObject({
      available: true,
      version: 1,
    });
    expect(headers.headers.every((header) => header.available)).toBe(true);
    expect(Object.keys(headers.defaultVersions)).toHaveLength(25);
    expect(await codeOf(workflows.getHeaders({}))).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("creates a craft in the active project, prefilled from its profile", async () => {
    const { craft } = await workflows.createCraft({ workflowName: "BlogWriter" }, as(token));
    craftId = craft!.summary!.craftId;
    expect(craft!.summary).toMatchObject({ craftName: "Untitled Blog post", projectId, state: "NotStarted" });
    expect(craft!.currentStep).toBe("topic");
    const topic = step(craft!, "topic");
    expect(topic.state).toBe("NotStarted");
    expect(topic.values).toEqual({
      keywords: ["sourdough starter", "wild yeast"],
      audience: "home bakers",
      tone: "friendly",
    });
    expect(step(craft!, "outline").state).toBe("NotInitialized");

    expect(await codeOf(workflows.createCraft({ workflowName: "NoSuchWriter" }, as(token)))).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("checks inputs server-side before generating", async () => {
    const error = await codeOf(
      complete(workflows, token, { craftId, stepName: "topic", values: { topic: "", tone: "grim" } }),
    );
    expect(error.code).toBe("CR_ERR_BAD_REQUEST");
    expect(error.fields).toEqual({
      topic: "Topic is required",
      tone: "Choose one of: Friendly, Professional, Playful, Bold",
    });
  });

  it("saves values without completing", async () => {
    const { craft } = await workflows.saveCraft(
      { craftId, stepName: "topic", values: { topic: "How to keep a sourdough starter alive" } },
      as(token),
    );
    expect(craft!.summary!.state).toBe("InProgress");
    expect(step(craft!, "topic")).toMatchObject({ state: "InProgress", status: "inprogress" });
    expect(step(craft!, "topic").values).toMatchObject({
      topic: "How to keep a sourdough starter alive",
      tone: "friendly",
    });
  });

  it("completes the topic step offline, streaming, and opens the outline step", async () => {
    const so = await complete(workflows, token, { craftId, stepName: "topic", values: {} });
    expect(so.started).toMatchObject({ engine: "offline", framework: "AIDA" });
    expect(so.deltas).toBeGreaterThan(10);
    const { result, meta, craft } = so.completed!;
    expect(result).toMatchObject({
      format: "list",
      engine: "offline",
      framework: "AIDA",
      note: "Drafted offline with the AIDA framework from your own inputs — no AI provider is configured.",
    });
    expect(result!.content).toBe(so.text.trim());
    expect(meta).toMatchObject({ engine: "offline", craftState: "InProgress", nextStep: "outline" });
    expect(step(craft!, "topic").state).toBe("Completed");
    const outline = step(craft!, "outline");
    expect(outline.state).toBe("InProgress");
    const sections = result!.sections as { titles: string[]; outline: string[] };
    expect(outline.values).toEqual({ title: sections.titles[0], outline: sections.outline, length: "medium" });
  });

  it("runs one action per craft, and a cancelled step saves nothing", async () => {
    const controller = new AbortController();
    let second: { code: string } | undefined;
    await expect(
      (async () => {
        for await (const message of workflows.completeStep(
          { craftId, stepName: "outline" },
          { ...as(token), signal: controller.signal },
        )) {
          if (message.event.case === "delta" && !second) {
            second = await codeOf(complete(workflows, token, { craftId, stepName: "outline" }));
            controller.abort();
          }
        }
      })(),
    ).rejects.toThrow();
    expect(second).toMatchObject({ code: "TooManyRunningActions" });

    // The cancelled generation is undone and its lock released.
    let craft: Craft | undefined;
    for (let i = 0; i < 50; i++) {
      craft = (await workflows.getCraft({ craftId }, as(token))).craft!;
      if (step(craft, "outline").results.length === 0 && step(craft, "outline").state === "InProgress") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(step(craft!, "outline")).toMatchObject({ state: "InProgress", results: [] });
    expect(craft!.summary!.state).toBe("InProgress");
  });

  it("writes the full draft, completes the craft, and lists its results", async () => {
    let so: Streamed | undefined;
    for (let attempt = 0; attempt < 20 && !so; attempt++) {
      so = await complete(workflows, token, { craftId, stepName: "outline", values: { length: "short" } }).catch(
        async (error) => {
          if (describeError(error).code !== "TooManyRunningActions") throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
          return undefined;
        },
      );
    }
    expect(so!.started).toMatchObject({ engine: "offline", framework: "PAS" });
    const { result, craft } = so!.completed!;
    expect(result!.format).toBe("html");
    expect(result!.content).toMatch(/^<h1>/);
    expect(result!.content).toContain("Crumb &amp; Co");
    expect(craft!.summary!.state).toBe("Completed");
    expect(craft!.steps.map((candidate) => candidate.state)).toEqual(["Completed", "Completed", "Completed"]);
    expect(step(craft!, "draft").results).toEqual([result]);

    // Not renamed by the user: the craft is named after the title it was written with.
    const title = step(craft!, "outline").values.title;
    expect(typeof title === "string" && title.length > 0).toBe(true);
    expect(craft!.summary!.craftName).toBe(title);
    const results = await workflows.getResults({ craftId }, as(token));
    expect(results.craftName).toBe(title);
    expect(results.results.map((entry) => entry.stepName)).toEqual(["topic", "outline"]);
  });

  it("reopens an earlier step for editing", async () => {
    const { craft } = await workflows.editStep({ craftId, stepName: "topic" }, as(token));
    expect(craft!.summary!.state).toBe("InProgress");
    expect(craft!.currentStep).toBe("topic");
    expect(craft!.steps.map((candidate) => candidate.state)).toEqual(["InProgress", "NotStarted", "NotStarted"]);
    expect(step(craft!, "outline").values).toMatchObject({ length: "short" });
  });

  it("renames and lists crafts, newest first, scoped to the user", async () => {
    expect(await codeOf(workflows.renameCraft({ craftId, name: "  " }, as(token)))).toMatchObject({
      code: "CR_ERR_BAD_REQUEST",
    });
    const { craft } = await workflows.renameCraft({ craftId, name: "Starter care" }, as(token));
    expect(craft!.summary!.craftName).toBe("Starter care");

    const newer = (
      await workflows.createCraft({ workflowName: "BlogWriter", projectId, craftName: "Second" }, as(token))
    ).craft!;
    const list = await workflows.listCrafts({ projectId, pageSize: 1 }, as(token));
    expect(list).toMatchObject({ total: 2, page: 1, totalPages: 2 });
    expect(list.crafts[0]!.craftId).toBe(newer.summary!.craftId);
    const second = await workflows.listCrafts({ projectId, page: 2, pageSize: 1 }, as(token));
    expect(second.crafts[0]).toMatchObject({ craftId, craftName: "Starter care", workflowName: "BlogWriter" });

    const stranger = await signIn();
    expect(await codeOf(workflows.getCraft({ craftId }, as(stranger)))).toMatchObject({ code: "NOT_FOUND" });
    expect((await workflows.listCrafts({ projectId }, as(stranger))).total).toBe(0);
  });

  describe("events", () => {
    const kafka = createKafka(
      env.KAFKA_BROKERS ?? "127.0.0.1:9092",
      `wf-test-${randomUUID()}`,
      createLogger("test", "warn"),
    );
    const consumer = kafka.consumer(`wf-test-${randomUUID()}`);
    afterAll(() => consumer.close(true));

    it("publishes CraftCreated, GenerationUsed and CraftCompleted through the outbox", async () => {
      const seen: { type: string; data: unknown }[] = [];
      const schemas = [CraftCreatedSchema, GenerationUsedSchema, CraftCompletedSchema];
      const stream = await consumer.consume({
        topics: [topicName(namespace, TOPICS.workflowsCraft)],
        mode: "earliest",
      });
      stream.on("data", (message) => {
        if (message.key !== craftId) return;
        const type = message.headers.get("ce_type") ?? "";
        const schema = schemas.find((candidate) => candidate.typeName === type);
        if (schema) seen.push({ type: type.split(".").pop()!, data: fromBinary(schema, message.value) });
      });
      for (let i = 0; i < 100 && seen.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen.map((event) => event.type)).toEqual([
        "CraftCreated",
        "GenerationUsed",
        "GenerationUsed",
        "CraftCompleted",
      ]);
      expect(seen[0]!.data).toMatchObject({ craftId, projectId, workflowName: "BlogWriter" });
      expect(seen[1]!.data).toMatchObject({ stepName: "topic", engine: "offline", inputTokens: 0, outputTokens: 0 });
      expect(seen[2]!.data).toMatchObject({ stepName: "outline", engine: "offline" });
    });
  });

  it("answers a buffered completion whole, without deltas: the same result the stream writes", async () => {
    const values = { topic: "How to keep a sourdough starter alive" };
    const streamedCraft = (await workflows.createCraft({ workflowName: "BlogWriter" }, as(token))).craft!;
    const bufferedCraft = (await workflows.createCraft({ workflowName: "BlogWriter" }, as(token))).craft!;
    const streamed = await complete(workflows, token, {
      craftId: streamedCraft.summary!.craftId,
      stepName: "topic",
      values,
    });
    const buffered = await complete(workflows, token, {
      craftId: bufferedCraft.summary!.craftId,
      stepName: "topic",
      values,
      buffered: true,
    });
    expect(streamed.deltas).toBeGreaterThan(10);
    expect(buffered.deltas).toBe(0);
    expect(buffered.started).toEqual(streamed.started);
    expect(buffered.completed!.result!.content).toBe(streamed.completed!.result!.content);
    expect(step(buffered.completed!.craft!, "topic").state).toBe("Completed");
  });
});
