import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createKafka, createLogger, dlqTopic, TOPICS, topicName } from "@crafter/kit";
import { repoRoot, stackEnv } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";

// `node services/<name>/dist/main.js migrate` is what the Helm post-install/post-upgrade Job runs:
// it must create the service's topics (and DLQs) and sync its indexes on the real servers, start
// no server, exit 0, and do it again harmlessly. The projects service publishes and consumes.

const env = stackEnv();
const brokers = env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const mongodbUrl = env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/";
const namespace = `mig_${randomUUID().slice(0, 8)}`;
const entry = join(repoRoot, "services/projects/dist/main.js");
const logger = createLogger("migrate-test", "silent");

function migrate(
  entryPoint = entry,
  extra: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entryPoint, "migrate"], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        CRAFTER_NAMESPACE: namespace,
        MONGODB_URL: mongodbUrl,
        KAFKA_BROKERS: brokers,
        REDIS_URL: env.REDIS_URL,
        // The peers projects calls (services/manifest.yaml); migrate does not call them.
        AUTH_URL: "http://127.0.0.1:1",
        ACCOUNT_URL: "http://127.0.0.1:1",
        MEDIA_URL: "http://127.0.0.1:1",
        // Were migrate to start the RPC server, the process would stay up and the test time out.
        PORT: "0",
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

let db: Connection;

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build`);
  db = await mongoose.createConnection(mongodbUrl, { dbName: `${namespace}_projects` }).asPromise();
});

afterAll(async () => {
  await db.dropDatabase().catch(() => undefined);
  await db.close();
  const admin = createKafka(brokers, "migrate-test", logger).admin();
  const ours = (await admin.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`));
  if (ours.length > 0) await admin.deleteTopics({ topics: ours }).catch(() => undefined);
  await admin.close();
});

async function partitions(topics: string[]): Promise<Record<string, number>> {
  const admin = createKafka(brokers, "migrate-test", logger).admin();
  const metadata = await admin.metadata({ topics, forceUpdate: true });
  await admin.close();
  return Object.fromEntries([...metadata.topics].map(([name, topic]) => [name, topic.partitionsCount]));
}

describe("service migrate entry point", () => {
  it("stops at start, exit code 78, naming a peer's address it was not given", async () => {
    const run = await migrate(join(repoRoot, "services/workflows/dist/main.js"), {
      AUTH_URL: "http://127.0.0.1:1",
      PROJECTS_URL: "http://127.0.0.1:1",
    });
    expect(run.code).toBe(78);
    expect(run.output).toContain(
      "BILLING_URL is not set: the address of the billing service, which this service calls (services/manifest.yaml)",
    );
  });

  it("creates the topics and DLQs, builds the indexes, and exits 0 without serving", async () => {
    const run = await migrate();
    expect({ code: run.code, output: run.code === 0 ? "" : run.output }).toEqual({ code: 0, output: "" });
    expect(run.output).toContain("migrated: topics and indexes in place");
    expect(run.output).not.toContain("rpc server listening");

    const admin = createKafka(brokers, "migrate-test", logger).admin();
    const topics = await admin.listTopics();
    await admin.close();
    const project = topicName(namespace, TOPICS.projectsProject);
    expect(topics).toEqual(expect.arrayContaining([project, dlqTopic(project)]));
    // services/manifest.yaml: 6 partitions by default, so a consumer group scales to 6 pods.
    const craft = topicName(namespace, TOPICS.workflowsCraft);
    expect(await partitions([project, dlqTopic(project), craft, dlqTopic(craft)])).toEqual({
      [project]: 6,
      [dlqTopic(project)]: 6,
      [craft]: 6,
      [dlqTopic(craft)]: 6,
    });

    const collections = (await db.listCollections()).map((collection) => collection.name);
    expect(collections.length).toBeGreaterThan(0);
    const indexed = await Promise.all(
      collections.map(async (name) => (await db.collection(name).indexes()).filter((index) => index.name !== "_id_")),
    );
    // Every store of the projects service declares at least one index besides _id.
    expect(indexed.flat().length).toBeGreaterThan(0);
  });

  it("adds partitions to a topic created with fewer", async () => {
    const craft = topicName(namespace, TOPICS.workflowsCraft);
    const admin = createKafka(brokers, "migrate-test", logger).admin();
    await admin.deleteTopics({ topics: [craft] });
    // Deletion is asynchronous: create the one-partition topic once the broker lets us.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.createTopics({ topics: [craft], partitions: 1, replicas: 1 });
        if ((await partitions([craft]))[craft] === 1) break;
      } catch (error) {
        if (attempt > 40) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await admin.close();

    const run = await migrate();
    expect({ code: run.code, output: run.code === 0 ? "" : run.output }).toEqual({ code: 0, output: "" });
    expect(await partitions([craft])).toEqual({ [craft]: 6 });
  });

  it("runs again harmlessly, dropping only indexes no schema declares", async () => {
    const [collection] = (await db.listCollections()).map((c) => c.name);
    await db.collection(collection!).createIndex({ strayField: 1 }, { name: "stray_1" });
    const before = (await db.collection(collection!).indexes()).map((index) => index.name).sort();

    const run = await migrate();
    expect({ code: run.code, output: run.code === 0 ? "" : run.output }).toEqual({ code: 0, output: "" });

    const after = (await db.collection(collection!).indexes()).map((index) => index.name).sort();
    expect(after).toEqual(before.filter((name) => name !== "stray_1"));
  });
});
