import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import {
  createKafka,
  createLogger,
  createPublisher,
  databaseName,
  type OutboxEntry,
  type Publisher,
} from "@crafter/kit";
import { type GatewaySession, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { ProfileUpdatedSchema, ProjectDeletedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";

// The projects service's ProfileUpdated and ProjectDeleted, through its outbox and Kafka, and the
// workflows service's consumer of ProjectDeleted (the project's crafts go with it), on the test stack.

jest.setTimeout(60_000);

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter";
let session: GatewaySession;
let projectsDb: Connection;
let workflowsDb: Connection;
let publisher: Publisher;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const connect = (service: string) =>
  mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: databaseName(namespace, service) })
    .asPromise();

/** The relay marks each entry it published to Kafka (kit events/outbox.ts). */
const published = (entry: OutboxEntry) =>
  until(`${entry.type} published`, () => projectsDb.collection("outbox_published").findOne({ _id: entry.id as never }));

const payloadOf = (entry: OutboxEntry) => (entry.payload as unknown as { buffer: Uint8Array }).buffer;

async function createProject(name: string) {
  const created = await session.post("/api/projects/createProject", { name, description: `${name} bakes bread.` });
  expect(created.status).toBe(201);
  return created.body.result.project as { projectId: string; profileId: string };
}

async function createCraft(projectId: string): Promise<string> {
  const created = await session.post("/api/workflowsV2", { workflowName: "BlogWriter", projectId });
  expect(created.status).toBe(201);
  return created.body.result.craftId;
}

beforeAll(async () => {
  session = (await verifiedSession("project-events")).session;
  [projectsDb, workflowsDb] = await Promise.all([connect("projects"), connect("workflows")]);
  publisher = await createPublisher(
    createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "project-events-test", createLogger("t", "silent")),
  );
});

afterAll(async () => {
  await publisher?.disconnect();
  await Promise.all([projectsDb?.close(), workflowsDb?.close()]);
});

describe("ProfileUpdated", () => {
  it("is published when a profile changes, naming the keys that changed", async () => {
    const { projectId } = await createProject("Crust Corner");
    const product = await session.post("/api/profiles", {
      projectId,
      profileType: "PRODUCT",
      values: { name: "Seeded rye", description: "Dense and dark." },
    });
    expect(product.status).toBe(201);
    const profileId = product.body.result.profileId;
    const patched = await session.request("PATCH", `/api/profiles/${profileId}`, {
      values: { description: "Dense, dark and seeded.", pageSlug: "seeded-rye" },
    });
    expect(patched.status).toBe(200);
    // The profile's answer carries no outbox.
    expect(JSON.stringify(patched.body.result)).not.toContain("outbox");

    const doc = await projectsDb.collection("profiles").findOne({ _id: profileId as never });
    const entries = (doc?.outbox ?? []) as OutboxEntry[];
    expect(entries.map((entry) => entry.type)).toEqual([ProfileUpdatedSchema.typeName]);
    const entry = entries[0]!;
    expect(entry.key).toBe(projectId);
    expect(entry.topic).toBe(`${namespace}.projects.project.v1`);
    expect(fromBinary(ProfileUpdatedSchema, payloadOf(entry))).toMatchObject({
      projectId,
      profileId,
      profileType: "PRODUCT",
      name: "Seeded rye",
      changed: ["description", "pageSlug"],
    });
    await published(entry);
  });
});

describe("ProjectDeleted", () => {
  it("deletes the project's crafts in the workflows service, once; other projects' crafts stay", async () => {
    const kept = await createProject("Kept Bakery");
    const gone = await createProject("Gone Bakery");
    const keptCraft = await createCraft(kept.projectId);
    const goneCrafts = [await createCraft(gone.projectId), await createCraft(gone.projectId)];

    const deleted = await session.request("DELETE", `/api/projects/${gone.projectId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.result.deleted).toBe(true);

    const tombstone = await projectsDb.collection("project_deletions").findOne({ _id: gone.projectId as never });
    const entry = ((tombstone?.outbox ?? []) as OutboxEntry[])[0]!;
    expect(entry.type).toBe(ProjectDeletedSchema.typeName);
    expect(fromBinary(ProjectDeletedSchema, payloadOf(entry))).toMatchObject({
      projectId: gone.projectId,
      projectTitle: "Gone Bakery",
    });
    await published(entry);

    // Consumed: the crafts leave every read and list.
    for (const craftId of goneCrafts) {
      await until(
        `craft ${craftId} gone`,
        async () => (await session.get(`/api/workflowsV2/${craftId}`)).status === 404,
      );
    }
    // The project itself is no longer the user's: listing its crafts is "No such project".
    expect((await session.get(`/api/workflowsV2?projectId=${gone.projectId}`)).status).toBe(404);
    expect((await session.get(`/api/workflowsV2/${keptCraft}`)).status).toBe(200);

    // Redelivered (the same ce_id, and a copy under a new one, as a republished event would be):
    // the consumer handles both and changes nothing again.
    const crafts = workflowsDb.collection("crafts");
    const deletedAt = async () =>
      (await crafts.find({ projectId: gone.projectId }).toArray()).map((craft) => [craft._id, craft.deletedAt]).sort();
    const before = await deletedAt();
    expect(before).toHaveLength(2);
    expect(before.every(([, at]) => at instanceof Date)).toBe(true);
    const copy = randomUUID();
    for (const id of [entry.id, copy]) {
      await publisher.publish(entry.topic, entry.key, Buffer.from(payloadOf(entry)), {
        ce_id: id,
        ce_type: entry.type,
        ce_source: "projects",
        ce_time: new Date().toISOString(),
      });
    }
    await until("the copy handled", () =>
      workflowsDb.collection("processed_events").findOne({ _id: `${namespace}.workflows:${copy}` as never }),
    );
    expect(await deletedAt()).toEqual(before);
    expect((await session.get(`/api/workflowsV2/${keptCraft}`)).status).toBe(200);
  });
});
