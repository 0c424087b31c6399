#!/usr/bin/env node
// scripts/new-service NAME: scaffolds services/NAME with exactly the shape of
// docs/foundation-contract.md, a proto with one RPC, and its services/manifest.yaml entry, then
// regenerates what the manifest drives (Helm values, the kit's topic topology, Grafana) and links
// the workspace (npm install). After `make proto` the service builds, starts healthy in
// scripts/stack.mjs, renders in the chart and passes make check; its test/ has a unit test of its
// domain and an integration test of its RPC against the stack.
//
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadManifest, MANIFEST, root } from "./manifest.mjs";

const name = process.argv[2];
if (!name || !/^[a-z][a-z0-9]*$/.test(name)) {
  console.error("usage: scripts/new-service NAME   (lowercase letters and digits, e.g. contacts)");
  process.exit(2);
}
const manifest = loadManifest();
if (manifest.components[name] || existsSync(join(root, "services", name))) {
  console.error(`services/${name} or its manifest entry already exists`);
  process.exit(1);
}
const Name = name[0].toUpperCase() + name.slice(1);
const NAME = name.toUpperCase();
const port = Math.max(...Object.values(manifest.components).map((c) => (c.protocol === "grpc" ? c.port : 0))) + 1;
const service = `${Name}Service`;
const rpc = `Get${Name}Status`;
const method = `get${Name}Status`;

const files = {
  [`proto/crafter/${name}/v1/${name}.proto`]: `syntax = "proto3";

package crafter.${name}.v1;

// The ${name} service. Every call acts for the user of the access token it carries.
service ${service} {
  // How many entries the calling user has.
  rpc ${rpc}(${rpc}Request) returns (${rpc}Response);
}

message ${rpc}Request {}

message ${rpc}Response {
  int32 entries = 1;
  bool empty = 2;
}
`,
  [`services/${name}/package.json`]: `${JSON.stringify(
    {
      name: `@crafter/${name}`,
      private: true,
      type: "module",
      scripts: { start: "node dist/main.js" },
      dependencies: {
        "@bufbuild/protobuf": "~2.13.0",
        "@connectrpc/connect": "~2.1.2",
        "@crafter/kit": "*",
        "@crafter/proto": "*",
        mongoose: "^9.12.1",
        zod: "^4.6.7",
      },
    },
    null,
    2,
  )}\n`,
  [`services/${name}/tsconfig.json`]: `${JSON.stringify(
    { extends: "../../tsconfig.base.json", include: ["src/**/*.ts", "test/**/*.ts"] },
    null,
    2,
  )}\n`,
  [`services/${name}/README.md`]: `# ${name}

A Crafter service (docs/foundation-contract.md), scaffolded by \`scripts/new-service ${name}\`.

- RPCs: \`crafter.${name}.v1.${service}\` (\`proto/crafter/${name}/v1/${name}.proto\`); who may call
  each: \`src/rpc/access.ts\`.
- Topology: its entry in \`services/manifest.yaml\` (port ${port}, calls, uses, topics). After changing
  it run \`node scripts/manifest.mjs generate\`.
- Layout: \`src/main.ts\` (runService), \`config.ts\` (env), \`deps.ts\`, \`rpc/routes.ts\`,
  \`usecases/<verb-noun>.ts\`, \`domain/\` (pure), \`store/\` (one repository per entity),
  \`events/publishers.ts\`, \`events/consumers.ts\`, \`test/\`.
- Tests: \`test/*.test.ts\` (unit), \`test/*.int.test.ts\` (against \`scripts/stack.mjs up --profile test\`).
`,
  [`services/${name}/src/main.ts`]: `import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import type { ${Name}Deps } from "./deps";
import { ${name}Consumers } from "./events/consumers";
import { ${Name}Events } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";

await runService({
  name: "${name}",
  configSchema,
  async setup({ config, logger, mongo, kick }) {
    const stores = await createStores(mongo);
    const events = new ${Name}Events(config.CRAFTER_NAMESPACE);
    const deps: ${Name}Deps = { stores, events, kick, logger, now: () => new Date() };
    return {
      routes: routes(deps),
      access,
      publishes: events.topics,
      outbox: stores.outbox,
      consumers: ${name}Consumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
`,
  [`services/${name}/src/config.ts`]: `import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/**
 * Environment of the ${name} service: the kit's base settings (AUTH_URL and every server address)
 * plus its own. A peer it calls gets a required \`<PEER>_URL: z.url()\` here (no default) and a
 * \`calls\` entry in services/manifest.yaml.
 */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext); services/manifest.yaml's port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(${port}),
});

export type Config = z.infer<typeof configSchema>;
`,
  [`services/${name}/src/deps.ts`]: `import type { Logger } from "@crafter/kit";
import type { ${Name}Events } from "./events/publishers";
import type { ${Name}Stores } from "./store";

/** What the ${name} use cases need; built once in main.ts. */
export interface ${Name}Deps {
  stores: ${Name}Stores;
  /** Builders of the events this service publishes (outbox entries). */
  events: ${Name}Events;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
}
`,
  [`services/${name}/src/rpc/routes.ts`]: `import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { ${service} } from "@crafter/proto/crafter/${name}/v1/${name}_pb";
import type { ${Name}Deps } from "../deps";
import { ${method} } from "../usecases/${kebab(method)}";

/** crafter.${name}.v1.${service}: thin handlers; the use cases hold the logic. */
export function routes(deps: ${Name}Deps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(${service}, {
      async ${method}(req, ctx) {
        return ${method}(deps, callerOf(ctx), req);
      },
    });
}
`,
  [`services/${name}/src/rpc/access.ts`]: `import { rpcAccess } from "@crafter/kit";
import { ${service} } from "@crafter/proto/crafter/${name}/v1/${name}_pb";

/** Who may call each ${service} RPC: a method without an entry is refused. */
export const access = rpcAccess(${service}, {
  ${method}: ["user"],
});
`,
  [`services/${name}/src/usecases/${kebab(method)}.ts`]: `import type { Caller } from "@crafter/kit";
import type { ${Name}Deps } from "../deps";
import { type Status, status } from "../domain/status";

/** How many entries the caller has. */
export async function ${method}(
  deps: Pick<${Name}Deps, "stores">,
  caller: Caller,
  _input: unknown,
): Promise<Status> {
  return status(await deps.stores.entries.countFor(caller.userId));
}
`,
  [`services/${name}/src/domain/status.ts`]: `/** What ${rpc} answers. */
export interface Status {
  entries: number;
  empty: boolean;
}

/** The status of a user's entries (pure). */
export function status(entries: number): Status {
  return { entries, empty: entries === 0 };
}
`,
  [`services/${name}/src/store/entry.repository.ts`]: `import { idField, modelOn, type OutboxEntry, outboxField, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** An entry of one user. */
export interface EntryDoc {
  _id: string;
  userId: string;
  outbox: OutboxEntry[];
  createdAt: Date;
  updatedAt: Date;
}

const entrySchema = new Schema<EntryDoc>(
  { _id: idField, userId: { type: String, required: true }, outbox: outboxField },
  { collection: "entries", timestamps: true, versionKey: false },
);
entrySchema.index({ userId: 1, createdAt: 1 });

export function entryModel(connection: Connection): Model<EntryDoc> {
  return modelOn<EntryDoc>(connection, "Entry", entrySchema);
}

/** Entries, always within their owner. */
export class EntryRepository extends TenantRepository<EntryDoc> {
  constructor(model: Model<EntryDoc>) {
    super(model, "userId");
  }

  /** How many entries the user has (an equality filter on an indexed field). */
  countFor(userId: string): Promise<number> {
    return this.count(userId);
  }
}
`,
  [`services/${name}/src/store/index.ts`]: `import type { Connection, Model } from "mongoose";
import { type EntryDoc, EntryRepository, entryModel } from "./entry.repository";

/** Every repository of the ${name} service, over its own database. */
export interface ${Name}Stores {
  entries: EntryRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Model<EntryDoc>[];
}

/** Builds the repositories and waits until their indexes exist. */
export async function createStores(connection: Connection): Promise<${Name}Stores> {
  const entries = entryModel(connection);
  await entries.init();
  return { entries: new EntryRepository(entries), outbox: [entries] };
}
`,
  [`services/${name}/src/events/publishers.ts`]: `/**
 * Builders of the events the ${name} service publishes, as outbox entries. It publishes none yet:
 * to add one, add its topic to TOPICS (services/kit/src/events/topics.ts) and to this service's
 * \`publishes\` in services/manifest.yaml, put its message in proto/crafter/events/v1, and build it
 * here with \`outboxEntry(topic, aggregateId, Schema, value)\` (the key is the aggregate id).
 */
export class ${Name}Events {
  /** The full names of the topics it publishes (\`<namespace>.<name>\`). */
  readonly topics: string[] = [];

  constructor(readonly namespace: string) {}
}
`,
  [`services/${name}/src/events/consumers.ts`]: `import type { ServiceParts } from "@crafter/kit";
import type { ${Name}Deps } from "../deps";

/**
 * The ${name} service's Kafka consumers. It consumes none yet: to add one, list the topic under
 * its \`consumes\` in services/manifest.yaml and return
 * \`{ topics: [topicName(namespace, TOPICS.x)], handlers: [on(Schema, (event) => useCase(deps, event))] }\`.
 */
export function ${name}Consumers(_namespace: string, _deps: ${Name}Deps): ServiceParts["consumers"] {
  return undefined;
}
`,
  [`services/${name}/test/status.test.ts`]: `import { describe, expect, it } from "@jest/globals";
import { status } from "../src/domain/status";

describe("${name} status", () => {
  it("is empty without entries and counts them otherwise", () => {
    expect(status(0)).toEqual({ entries: 0, empty: true });
    expect(status(3)).toEqual({ entries: 3, empty: false });
  });
});
`,
  [`services/${name}/test/${name}.int.test.ts`]: `// The ${name} service of a running test stack (scripts/stack.mjs; addresses from .data/stack/*/stack.env).
import { createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, verifiedRpcUser } from "@crafter/kit/testing";
import { ${service} } from "@crafter/proto/crafter/${name}/v1/${name}_pb";
import { describe, expect, it } from "@jest/globals";

const client = createServiceClient(${service}, stackEnv().${NAME}_URL!, { timeoutMs: 30_000 });

describe("${service}", () => {
  it("answers a verified user with their status, and refuses a call without a token", async () => {
    const { headers } = await verifiedRpcUser("${name}");

    expect(await client.${method}({}, { headers })).toMatchObject({ entries: 0, empty: true });
    const refused = await client.${method}({}).then(
      () => "resolved",
      (error) => describeError(error).status,
    );
    expect(refused).toBe(401);
  });
});
`,
};

function kebab(camel) {
  return camel.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  console.log(`created ${path}`);
}

// The manifest entry, before the gateway's (services first, the HTTP entry last).
const entry = `  ${name}:
    port: ${port}
    protocol: grpc
    image: crafter-${name}
    calls: [auth]
    uses: [mongodb, kafka, redis]
    publishes: []
    consumes: []
`;
const text = readFileSync(MANIFEST, "utf8");
const at = text.search(/^ {2}gateway:$/m);
writeFileSync(MANIFEST, at === -1 ? `${text}${entry}` : `${text.slice(0, at)}${entry}${text.slice(at)}`);
console.log(`added ${name} to services/manifest.yaml (port ${port})`);

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
};
run(process.execPath, ["scripts/manifest.mjs", "generate"]);
run(join(root, "node_modules/.bin/biome"), ["format", "--write", `services/${name}`]);
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"]);
console.log(`
services/${name} is ready. Next:
  make proto                      # generates proto/gen/crafter/${name}/v1/${name}_pb.ts
  node scripts/build.mjs ${name}   # then scripts/stack.mjs up starts it with the others
`);
