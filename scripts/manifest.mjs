#!/usr/bin/env node
// services/manifest.yaml, the one topology file, and what is generated from it or checked against it.
//   node scripts/manifest.mjs generate   rewrites the generated parts (Helm components, kit topology,
//                                        Grafana dashboards)
//   node scripts/manifest.mjs check      fails listing every place that disagrees with the manifest
//                                        (make check); writes nothing
//   node scripts/manifest.mjs images     prints the `docker build` command of every image
// Other scripts import loadManifest() (scripts/stack.mjs, scripts/grafana-dashboards.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, parse, parseDocument } from "yaml";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const MANIFEST = join(root, "services/manifest.yaml");
export const SERVERS = ["mongodb", "kafka", "redis", "smtp", "s3"];
export const PROTOCOLS = ["grpc", "http"];
const NAME = /^[a-z][a-z0-9]*$/;
const KEYS = ["port", "protocol", "image", "calls", "uses", "publishes", "consumes", "public"];
const TOPIC = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.v[0-9]+$/;

/** `billing` → `BILLING_URL`: the variable a caller reads a peer's address from. */
export const urlVar = (name) => `${name.toUpperCase()}_URL`;

/**
 * The manifest, validated and normalised.
 * @returns {{ partitions: number, components: Record<string, { name: string, port: number,
 *   protocol: "grpc"|"http", image: string, calls: string[], uses: string[], public: boolean,
 *   migrate: boolean, publishes: { topic: string, partitions: number }[], consumes: string[] }>,
 *   topics: Record<string, { partitions: number, publisher: string }> }}
 * @throws Error listing every problem (unknown peer, server or topic, duplicate port, …).
 */
export function loadManifest(file = MANIFEST) {
  const raw = parse(readFileSync(file, "utf8"));
  const problems = [];
  const partitions = raw?.partitions ?? 6;
  if (!Number.isInteger(partitions) || partitions < 1) problems.push(`partitions: ${partitions} is not a count`);
  const components = {};
  const topics = {};
  const ports = new Map();
  for (const key of Object.keys(raw ?? {}))
    if (!["partitions", "components"].includes(key)) problems.push(`${key}: not a manifest key`);
  for (const [name, c] of Object.entries(raw?.components ?? {})) {
    if (!NAME.test(name)) problems.push(`${name}: a name is lowercase letters and digits`);
    for (const key of Object.keys(c ?? {}))
      if (!KEYS.includes(key)) problems.push(`${name}.${key}: not a component key (${KEYS.join(", ")})`);
    const protocol = c.protocol ?? "grpc";
    if (!PROTOCOLS.includes(protocol)) problems.push(`${name}: protocol ${protocol} is not ${PROTOCOLS.join(" or ")}`);
    if (!Number.isInteger(c.port) || c.port < 1 || c.port > 65_535) problems.push(`${name}: port ${c.port} is no port`);
    if (ports.has(c.port)) problems.push(`${name}: port ${c.port} is ${ports.get(c.port)}'s too`);
    ports.set(c.port, name);
    if (typeof c.image !== "string" || !c.image) problems.push(`${name}: no image`);
    const uses = c.uses ?? [];
    for (const server of uses)
      if (!SERVERS.includes(server)) problems.push(`${name}: uses ${server}, not one of ${SERVERS}`);
    const publishes = (c.publishes ?? []).map((entry) =>
      typeof entry === "string" ? { topic: entry, partitions } : { partitions, ...entry },
    );
    for (const { topic, partitions: count } of publishes) {
      if (!TOPIC.test(topic)) problems.push(`${name}: topic ${topic} is not <service>.<aggregate>.v<N>`);
      if (!Number.isInteger(count) || count < 1) problems.push(`${name}: ${topic} has ${count} partitions`);
      if (topics[topic]) problems.push(`${topic}: published by ${topics[topic].publisher} and ${name}`);
      topics[topic] = { partitions: count, publisher: name };
    }
    if ((publishes.length > 0 || (c.consumes ?? []).length > 0) && !uses.includes("kafka"))
      problems.push(`${name}: carries topics but does not use kafka`);
    components[name] = {
      name,
      port: c.port,
      protocol,
      image: c.image,
      calls: c.calls ?? [],
      uses,
      public: c.public === true,
      // The Helm migrate Job runs `main.js migrate` (topics, indexes) of every service with a store or topics.
      migrate: uses.includes("mongodb") || uses.includes("kafka"),
      publishes,
      consumes: c.consumes ?? [],
    };
  }
  for (const c of Object.values(components)) {
    for (const peer of c.calls) {
      if (!components[peer]) problems.push(`${c.name}: calls ${peer}, which is not a component`);
      else if (peer === c.name) problems.push(`${c.name}: calls itself`);
      else if (components[peer].protocol !== "grpc") problems.push(`${c.name}: calls ${peer}, which serves no RPCs`);
    }
    for (const topic of c.consumes)
      if (!topics[topic]) problems.push(`${c.name}: consumes ${topic}, which nobody publishes`);
  }
  if (problems.length > 0) throw new Error(`${relative(root, file)}:\n  ${problems.join("\n  ")}`);
  return { partitions, components, topics };
}

// --- generated files -------------------------------------------------------------------------

const VALUES_FILES = () => [
  join(root, "helm/crafter/values.yaml"),
  ...readdirSync(join(root, "helm/crafter/examples"))
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => join(root, "helm/crafter/examples", file)),
];
const TOPOLOGY_TS = join(root, "services/kit/src/events/topology.gen.ts");

/** A value as the chart's values files write it: `[a, b]`, `{ repository: x }`, a plain scalar. */
const yamlValue = (value) =>
  Array.isArray(value)
    ? `[${value.join(", ")}]`
    : typeof value === "object"
      ? `{ ${Object.entries(value)
          .map(([key, item]) => `${key}: ${item}`)
          .join(", ")} }`
      : String(value);

/**
 * A Helm values file with each component's manifest keys (image.repository, port, protocol,
 * public, calls, uses, migrate) set from the manifest. Edits are spliced into the text, so
 * comments, layout and every other key stay as written. values.yaml gets every component (new ones
 * appended, undeclared ones removed); an example file only the components and keys it already names.
 */
function helmValues(manifest, file, text) {
  const doc = parseDocument(text);
  const full = file.endsWith("/values.yaml");
  const components = doc.get("components");
  if (!isMap(components)) throw new Error(`${relative(root, file)}: no components map`);
  const edits = []; // { start, end, text }, applied from the end
  const lineStart = (offset) => text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = (offset) => {
    const end = text.indexOf("\n", offset);
    return end === -1 ? text.length : end + 1;
  };
  const column = (offset) => offset - lineStart(offset);
  const items = components.items;
  const indent = items.length > 0 ? " ".repeat(column(items[0].key.range[0])) : "  ";
  if (full) {
    items.forEach((item, i) => {
      if (manifest.components[item.key.value]) return;
      const end = i + 1 < items.length ? lineStart(items[i + 1].key.range[0]) : lineEnd(item.value.range[1] - 1);
      edits.push({ start: lineStart(item.key.range[0]), end, text: "" });
    });
  }
  const ORDER = ["image", "port", "protocol", "public", "calls", "uses", "migrate"];
  for (const c of Object.values(manifest.components)) {
    const wanted = {
      image: { repository: c.image },
      port: c.port,
      protocol: c.protocol === "grpc" ? undefined : c.protocol,
      public: c.public || undefined,
      calls: c.calls.length > 0 ? c.calls : undefined,
      uses: c.uses.length > 0 ? c.uses : undefined,
      migrate: c.migrate || undefined,
    };
    const pair = items.find((item) => item.key.value === c.name);
    if (!pair) {
      if (!full) continue;
      const after = items.length > 0 ? lineEnd(items.at(-1).value.range[1] - 1) : lineEnd(components.range[0]);
      const body = [
        `enabled: true`,
        ...ORDER.filter((key) => wanted[key] !== undefined).map((key) => `${key}: ${yamlValue(wanted[key])}`),
      ];
      edits.push({
        start: after,
        end: after,
        text: `${indent}${c.name}:\n${body.map((line) => `${indent}${indent}${line}\n`).join("")}`,
      });
      continue;
    }
    const entry = pair.value;
    const keyIndent = " ".repeat(column(entry.items[0].key.range[0]));
    let previous = entry.items[0]; // the pair after which a missing key is inserted
    for (const key of ORDER) {
      const value = wanted[key];
      const existing = entry.items.find((item) => item.key.value === key);
      if (!existing) {
        if (full && value !== undefined) {
          const at = lineEnd(previous.value.range[1] - 1);
          edits.push({ start: at, end: at, text: `${keyIndent}${key}: ${yamlValue(value)}\n` });
        }
        continue;
      }
      previous = existing;
      if (key === "image") {
        const repository = isMap(existing.value) ? existing.value.get("repository", true) : undefined;
        if (repository?.value === c.image) continue;
        const [start, end] = repository ? repository.range : existing.value.range;
        edits.push({ start, end, text: repository ? c.image : yamlValue(value) });
      } else if (value === undefined) {
        const current = existing.value.toJSON();
        if (full)
          edits.push({ start: lineStart(existing.key.range[0]), end: lineEnd(existing.value.range[1] - 1), text: "" });
        // An example may keep an explicit default (e.g. `calls: []`), but not a wrong list.
        else if (Array.isArray(current) && current.length > 0)
          edits.push({ start: existing.value.range[0], end: existing.value.range[1], text: "[]" });
        else if (current === true && (key === "public" || key === "migrate"))
          edits.push({ start: existing.value.range[0], end: existing.value.range[1], text: "false" });
      } else if (JSON.stringify(existing.value.toJSON()) !== JSON.stringify(value)) {
        edits.push({ start: existing.value.range[0], end: existing.value.range[1], text: yamlValue(value) });
      }
    }
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Biome-formatted TypeScript of `source`, as `biome format` writes `path`. */
function formatTs(path, source) {
  const biome = join(root, "node_modules/.bin/biome");
  const result = spawnSync(biome, ["format", `--stdin-file-path=${path}`], {
    input: source,
    encoding: "utf8",
    cwd: root,
  });
  if (result.status !== 0) throw new Error(`biome format ${relative(root, path)} failed:\n${result.stderr}`);
  return result.stdout;
}

/** services/kit/src/events/topology.gen.ts: partitions per topic and the topics of each service. */
function topologyTs(manifest) {
  const services = Object.fromEntries(
    Object.values(manifest.components)
      .filter((c) => c.publishes.length > 0 || c.consumes.length > 0)
      .map((c) => [c.name, { publishes: c.publishes.map((p) => p.topic), consumes: c.consumes }]),
  );
  const partitions = Object.fromEntries(Object.entries(manifest.topics).map(([topic, t]) => [topic, t.partitions]));
  return formatTs(
    TOPOLOGY_TS,
    `// Generated from services/manifest.yaml by \`node scripts/manifest.mjs generate\`: do not edit.
// make check (scripts/manifest.mjs check) fails when it is stale.

/** Partitions of a topic the manifest does not name (and of nothing else). */
export const DEFAULT_PARTITIONS = ${manifest.partitions};

/** Partitions of each topic (names as in TOPICS, without the namespace); its DLQ has as many. */
export const TOPIC_PARTITIONS: Readonly<Record<string, number>> = ${JSON.stringify(partitions)};

/** The topics each service publishes and consumes, as the manifest declares them. */
export const SERVICE_TOPICS: Readonly<Record<string, { publishes: readonly string[]; consumes: readonly string[] }>> = ${JSON.stringify(services)};
`,
  );
}

/** Every generated file: path → wanted content. */
function generated(manifest) {
  const files = new Map();
  for (const file of VALUES_FILES()) files.set(file, helmValues(manifest, file, readFileSync(file, "utf8")));
  files.set(TOPOLOGY_TS, topologyTs(manifest));
  return files;
}

// --- checks of hand-written files ------------------------------------------------------------

/** The `<NAME>_URL` fields of a config.ts and whether each has a default. */
function urlFields(source) {
  const fields = new Map();
  for (const match of source.matchAll(/^\s*([A-Z][A-Z0-9_]*_URL):\s*([^\n]*)/gm)) {
    fields.set(match[1], /\.default\(/.test(match[2]));
  }
  return fields;
}

function checkSources(manifest) {
  const problems = [];
  const read = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined);
  const base = urlFields(read("services/kit/src/config/config.ts") ?? "");
  if (base.get("AUTH_URL") !== false)
    problems.push("services/kit/src/config/config.ts: AUTH_URL must be a required z.url() (no default)");
  const names = Object.keys(manifest.components);
  for (const c of Object.values(manifest.components)) {
    const path = `services/${c.name}/src/config.ts`;
    const source = read(path);
    if (source === undefined) {
      problems.push(`${path}: missing`);
      continue;
    }
    // Every kit config reads AUTH_URL (the JWKS); a service's own fields add the rest.
    const own = urlFields(source);
    const fields = new Map([...base, ...own]);
    for (const peer of c.calls) {
      const has = fields.get(urlVar(peer));
      if (has === undefined) problems.push(`${path}: calls ${peer} (manifest) but has no ${urlVar(peer)}`);
      else if (has) problems.push(`${path}: ${urlVar(peer)} has a default; a peer's address is required`);
    }
    for (const [field] of own) {
      const peer = names.find((name) => urlVar(name) === field);
      if (peer && peer !== c.name && !c.calls.includes(peer))
        problems.push(`${path}: reads ${field}, but the manifest does not say ${c.name} calls ${peer}`);
    }
    if (!c.calls.includes("auth") && c.name !== "auth" && c.protocol === "grpc")
      problems.push(`services/manifest.yaml: ${c.name} verifies tokens with auth's JWKS, so it calls auth`);
    const port = source.match(/PORT:\s*z[^\n]*\.default\((\d+)\)/);
    if (!port) problems.push(`${path}: PORT has no default (the manifest's port, ${c.port})`);
    else if (Number(port[1]) !== c.port)
      problems.push(`${path}: PORT defaults to ${port[1]}, the manifest says ${c.port}`);
  }
  // Topics: the kit's TOPICS and the manifest name the same ones.
  const topicsTs = read("services/kit/src/events/topics.ts") ?? "";
  const declared = new Set([...topicsTs.matchAll(/^\s+\w+:\s*"([^"]+)",?$/gm)].map((m) => m[1]));
  for (const topic of Object.keys(manifest.topics))
    if (!declared.has(topic)) problems.push(`services/kit/src/events/topics.ts: TOPICS has no ${topic} (manifest)`);
  for (const topic of declared)
    if (!manifest.topics[topic]) problems.push(`services/manifest.yaml: no component publishes ${topic} (TOPICS)`);
  // One Dockerfile for every image.
  const dockerfile = read("Dockerfile");
  if (!dockerfile || !/^ARG SERVICE$/m.test(dockerfile)) problems.push("Dockerfile: missing, or no `ARG SERVICE`");
  for (const dir of readdirSync(join(root, "services"))) {
    if (existsSync(join(root, "services", dir, "Dockerfile")))
      problems.push(`services/${dir}/Dockerfile: the root Dockerfile (ARG SERVICE) builds every image`);
    if (existsSync(join(root, "services", dir, "src/main.ts")) && !manifest.components[dir])
      problems.push(`services/${dir}: a service the manifest does not declare`);
  }
  return problems;
}

/** The Grafana dashboards scripts/grafana-dashboards.mjs would write, compared with the committed ones. */
function checkGrafana() {
  const result = spawnSync(process.execPath, [join(root, "scripts/grafana-dashboards.mjs"), "--check"], {
    encoding: "utf8",
    cwd: root,
  });
  return result.status === 0 ? [] : [result.stderr.trim() || "scripts/grafana-dashboards.mjs --check failed"];
}

// --- CLI -------------------------------------------------------------------------------------

function main(command) {
  const manifest = loadManifest();
  if (command === "images") {
    for (const c of Object.values(manifest.components)) {
      const protocol = c.protocol === "grpc" ? "" : ` --build-arg PROTOCOL=${c.protocol}`;
      console.log(`docker build --build-arg SERVICE=${c.name} --build-arg PORT=${c.port}${protocol} -t ${c.image} .`);
    }
    return 0;
  }
  const files = generated(manifest);
  if (command === "generate") {
    for (const [path, content] of files) {
      if (!existsSync(path) || readFileSync(path, "utf8") !== content) {
        writeFileSync(path, content);
        console.log(`wrote ${relative(root, path)}`);
      }
    }
    const grafana = spawnSync(process.execPath, [join(root, "scripts/grafana-dashboards.mjs")], { stdio: "inherit" });
    return grafana.status ?? 1;
  }
  if (command === "check") {
    const problems = [];
    for (const [path, content] of files) {
      const current = existsSync(path) ? readFileSync(path, "utf8") : "";
      if (current !== content) problems.push(`${relative(root, path)}: stale (run node scripts/manifest.mjs generate)`);
    }
    problems.push(...checkSources(manifest), ...checkGrafana());
    for (const problem of problems) console.error(`manifest: ${problem}`);
    const count = Object.keys(manifest.components).length;
    console.log(
      `manifest: ${count} components, ${Object.keys(manifest.topics).length} topics: ${problems.length === 0 ? "ok" : `${problems.length} problems`}`,
    );
    return problems.length === 0 ? 0 : 1;
  }
  console.error("usage: node scripts/manifest.mjs generate|check|images");
  return 2;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv[2]);
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
